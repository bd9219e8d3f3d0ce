import { z } from "zod";
import { storableTime } from "@/lib/db/storable";
import { PATH_MAX_BYTES } from "@/lib/disk/limits";

/**
 * The ledger screen's URL (filters + cursor), parsed once for the page and the export route. Times without an
 * offset — what a datetime-local field sends — are UTC, as the form says.
 */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

const when = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v;
    const date = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(iso) ? new Date(iso) : new Date(NaN);
    // JavaScript reads 2026-02-30 as March 2nd: a day the month does not have is refused, not moved.
    const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
    const day = new Date(Date.UTC(y, m - 1, d));
    if (Number.isNaN(date.getTime()) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
      ctx.addIssue({ code: "custom", message: "use a date and time such as 2026-09-01T12:00" });
      return z.NEVER;
    }
    // As ledger_query's isoTimestamp: PostgreSQL cannot read year 0 or 10000, and the page failed on it as a 500.
    if (!storableTime(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "must lie between 0001-01-01 and 9999-12-31 (UTC)" });
      return z.NEVER;
    }
    return date;
  });

export const ledgerSearch = z.object({
  op: text(200),
  agent: text(200),
  platform: text(100),
  // As ledger_query's: the longest subject a call records (a disk path).
  subject: text(PATH_MAX_BYTES),
  since: when,
  until: when,
  cursor: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type LedgerSearch = z.output<typeof ledgerSearch>;

export const FILTER_KEYS = ["op", "agent", "platform", "subject", "since", "until"] as const;

/** The current filters as a query string plus overrides (undefined drops a key), for links that keep them. */
export function ledgerHref(raw: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  for (const key of [...FILTER_KEYS, "limit", "cursor"]) {
    const value = key in changes ? changes[key] : raw[key];
    if (value) q.set(key, value);
  }
  const s = q.toString();
  return s ? `/ledger?${s}` : "/ledger";
}
