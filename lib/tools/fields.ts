import { z } from "zod";
import { storableTime } from "@/lib/db/storable";

/**
 * ISO 8601 timestamp with an offset (`2026-09-01T12:00:00Z`) or a date (`2026-09-01`, midnight UTC), in years
 * 1–9999 once in UTC: the format alone lets through times PostgreSQL cannot read (`0000-06-01`, or
 * `9999-12-31T23:59:59-14:00`, which is year 10000), and a filter on one failed as an internal error.
 */
export const isoTimestamp = z
  // The union's own message ("Invalid input") would not tell the caller which format is expected.
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "Expected an ISO 8601 timestamp with Z or an offset (2026-09-01T12:00:00Z) or a date (2026-09-01)",
  })
  .refine((s) => storableTime(Date.parse(s)), "must lie between 0001-01-01 and 9999-12-31 (UTC)")
  .describe("ISO 8601 timestamp, e.g. 2026-09-01T12:00:00Z");

export const toDate = (s: string | undefined) => (s === undefined ? undefined : new Date(s));

export const pageLimit = (max: number, def: number) => z.number().int().min(1).max(max).default(def).describe(`Page size, default ${def}, max ${max}.`);

/** Annotation presets from the mailbox spec's rule, reused by both families. */
export const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const writes = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
