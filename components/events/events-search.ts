import { z } from "zod";
import { eventStatuses } from "@/lib/db/schema/events";
import { decodeCursor } from "@/lib/events/event-cursor";
import { typeFilter } from "@/lib/events/type-filter";

const text = (schema: z.ZodString) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(schema.optional());

const issuedCursor = (cursor: string) => {
  try {
    decodeCursor(cursor);
    return true;
  } catch {
    return false;
  }
};

/** The Events screen's URL: filters and cursor, so views are shareable and the back button works. */
export const eventsSearch = z.object({
  status: z.enum([...eventStatuses, "all"]).default("all"),
  source: text(z.string().max(64)),
  type: text(typeFilter),
  // Checked here, so a cursor the page did not issue shows as a filter error instead of failing the list's query.
  cursor: text(z.string().max(500).refine(issuedCursor, "not a cursor this page issued; open the first page")),
  /** `1`: show Brynth's own request.resolved events, which are hidden by default (lib/events/bookkeeping.ts). */
  bookkeeping: z.enum(["1"]).optional().catch(undefined),
});
export type EventsSearch = z.output<typeof eventsSearch>;

export const FILTER_KEYS = ["status", "source", "type", "bookkeeping"] as const;

/** The current filters plus overrides (undefined drops a key); a filter change starts again at the first page. */
export function eventsHref(raw: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  for (const key of [...FILTER_KEYS, "cursor"]) {
    const value = key in changes ? changes[key] : raw[key];
    if (value && !(key === "status" && value === "all")) q.set(key, value);
  }
  const s = q.toString();
  return s ? `/events?${s}` : "/events";
}
