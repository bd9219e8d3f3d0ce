import { sliceWhole } from "@/lib/text/well-formed";
/**
 * The mailbox client's URL: filters, search, cursor and the open thread live in the query string, so a view is
 * shareable and the back button works. One parser and one href builder, shared by the page and its links.
 */
export interface ThreadSearch {
  labels?: string;
  from?: string;
  subject?: string;
  q?: string;
  spam?: string;
  blocked?: string;
  unauth?: string;
  trash?: string;
  cursor?: string;
  thread?: string;
  /** `full`: the whole message; default: the reply without its quoted history. */
  view?: string;
}

const KEYS: (keyof ThreadSearch)[] = ["labels", "from", "subject", "q", "spam", "blocked", "unauth", "trash", "cursor", "thread", "view"];

export function readThreadSearch(params: Record<string, string | string[] | undefined>): ThreadSearch {
  const out: ThreadSearch = {};
  for (const k of KEYS) {
    const v = params[k];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    // Cut on a whole character: half an emoji is a lone surrogate, which failed the labels' jsonb query (a 500).
    if (s) out[k] = sliceWhole(s, 256);
  }
  return out;
}

/** The href of this view with some keys changed (undefined removes a key). */
export function threadHref(inboxId: string, current: ThreadSearch, change: Partial<ThreadSearch> = {}): string {
  const merged = { ...current, ...change };
  const q = new URLSearchParams();
  for (const k of KEYS) {
    const v = merged[k];
    if (v) q.set(k, v);
  }
  return q.size ? `/mail/${inboxId}?${q}` : `/mail/${inboxId}`;
}

/** `a, b` → `["a", "b"]`, lower case as labels are stored. */
export const labelList = (s: string | undefined) =>
  (s ?? "")
    .split(",")
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean)
    .slice(0, 20);
