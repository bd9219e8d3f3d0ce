import { z } from "zod";
import { isoTimestamp, pageLimit } from "@/lib/tools/fields";
import { PAGE_TOKEN_MAX } from "@/lib/tools/page-token";

/** Spec "Conventions": 10 a page by default; the spec sets no maximum, AgentMail's 100 is ours (design C6). */
export const limitField = pageLimit(100, 10);

export const pageTokenField = z
  .string()
  .min(1)
  .max(PAGE_TOKEN_MAX)
  .optional()
  .describe("`next_page_token` of the previous page, unchanged, with the same other arguments. Omit it for the first page.");

export const ascendingField = z.boolean().default(false).describe("Oldest first. Default false: newest first.");

export const beforeField = isoTimestamp.optional().describe("Only items before this time (exclusive), ISO 8601, e.g. 2026-09-01T12:00:00Z.");
export const afterField = isoTimestamp.optional().describe("Only items after this time (exclusive), ISO 8601, e.g. 2026-09-01T12:00:00Z.");

/**
 * A list tool's input: its own arguments plus `limit` and `pageToken`, strict. The token is checked by the handler
 * (pageAfter in list-page.ts), which knows the caller's project as well as these arguments.
 */
export function listInput<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, limit: limitField, pageToken: pageTokenField }).strict();
}
