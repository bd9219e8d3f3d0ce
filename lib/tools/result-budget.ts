/** The mailbox spec's "about 19,000 bytes": the UTF-8 size of an MCP result's JSON text. */
export const MCP_RESULT_BYTES = 19_000;

/** Content fields the ladder shortens, wherever they sit (nested objects and arrays included). */
export const BUDGET_CONTENT_KEYS: ReadonlySet<string> = new Set(["text", "html", "extracted_text", "extracted_html", "preview"]);

/**
 * What the last rung keeps, at every level. `next_page_token` is not in the spec's list but is kept (design §1.9):
 * without it an agent could not page past a result that fell back to identifiers.
 */
export const BUDGET_ID_KEYS: ReadonlySet<string> = new Set([
  "inbox_id",
  "message_id",
  "thread_id",
  "draft_id",
  "count",
  "limit",
  "send_status",
  "send_reason",
  "next_page_token",
]);

const LENGTHS = [2048, 512, 0] as const;

type Json = Record<string, unknown>;

/** An output as the caller gets it: the object (MCP structuredContent) and its JSON text, serialized once. */
export interface FittedResult {
  output: Json;
  text: string;
}

/**
 * How much of each content field a budgeted read fetched, so a 50-message thread of 20 KB bodies over MCP need not
 * move a megabyte to show identifiers: `prefix` characters of each (null: all of it), and `cut`, for every field
 * that was longer than that, a lower bound of its full length in characters. The ladder decides from these alone
 * whether a rung could fit, and asks for a longer prefix only when one could (`FitResult.reread`).
 */
export interface ContentRead {
  prefix: number | null;
  cut: number[];
}

/**
 * Records the fields a prefixed read cut, from each field as read and its full size in bytes (which Postgres knows
 * without decompressing the value, unlike its length in characters). A field is cut when it holds fewer bytes than
 * its full size; it then had more than `prefix` characters, and at least a quarter as many as its bytes (UTF-8 uses
 * at most four bytes a character).
 */
export function recordCut(content: ContentRead | undefined, fields: readonly [held: string | null, bytes: number | null | undefined][]): void {
  if (content?.prefix == null) return;
  for (const [held, bytes] of fields) {
    if (held === null || bytes == null || Buffer.byteLength(held, "utf8") >= bytes) continue;
    content.cut.push(Math.max(content.prefix + 1, Math.ceil(bytes / 4)));
  }
}

/** A fitted result, or the prefix the ladder needs to decide (null: the content in full). */
export type FitResult = FittedResult | { reread: number | null };

const fits = (text: string, maxBytes: number) => text.length <= maxBytes / 3 || Buffer.byteLength(text, "utf8") <= maxBytes;

/**
 * Keeps an MCP result within `maxBytes` by the spec's ladder: content fields shortened to 2048, 512, then 0
 * characters; then the largest list items as identifiers (fitByItems); then identifiers only. A shortened result says so (`truncated: true`) and carries the tool's `fix`
 * (where the full content is). At most five serializations, each O(n), and none of a candidate that cannot fit;
 * the input object is never changed.
 */
export function fitMcpResult(output: Json, opts: { fix: string; maxBytes?: number }): FittedResult {
  return fitWithin(output, { ...opts, content: { prefix: null, cut: [] } }) as FittedResult;
}

/**
 * The ladder over a result whose content fields may be prefixes (`content`). Each rung's lower bound adds what the
 * cut fields would add at that rung; a rung that could fit but needs more than the prefix asks for a reread. The
 * result is the one the ladder gives on the full content: a rung skipped here is one whose bound exceeds the budget
 * on the full content too (a character is at least one UTF-16 unit), and a rung evaluated here sees exactly the
 * full content's characters.
 */
export function fitWithin(output: Json, opts: { fix: string; maxBytes?: number; content: ContentRead }): FitResult {
  const maxBytes = opts.maxBytes ?? MCP_RESULT_BYTES;
  const { prefix, cut } = opts.content;
  /** What the cut fields hold beyond the prefix, shortened to `length` characters. */
  const beyond = (length: number) => (prefix === null ? 0 : cut.reduce((n, full) => n + Math.max(0, Math.min(full, length) - Math.min(prefix, length)), 0));
  // Each rung's lower bound from one walk, before any copy: a 50-message thread that ends in identifiers is never
  // copied three times over to learn that no rung fits.
  const size = measure(output);
  const markers = "truncated".length + "fix".length + opts.fix.length;
  const bound = (length: number) => size.unmarked + markers + size.content.reduce((n, l) => n + Math.min(l, length), 0) + beyond(length);
  // A candidate whose characters alone exceed the budget cannot fit: serializing a 1 MB thread to learn that costs
  // more than the rest of the ladder, so the bound decides first.
  if (size.all + beyond(Number.POSITIVE_INFINITY) <= maxBytes) {
    if (beyond(Number.POSITIVE_INFINITY) > 0) return { reread: null };
    const text = JSON.stringify(output);
    if (fits(text, maxBytes)) return { output, text };
  }
  for (const length of LENGTHS) {
    if (bound(length) > maxBytes) continue;
    if (beyond(length) > 0) return { reread: length };
    const marked = { ...(shorten(output, length, false) as Json), truncated: true, fix: opts.fix };
    if (minBytes(marked) > maxBytes) continue;
    const text = JSON.stringify(marked);
    if (fits(text, maxBytes)) return { output: marked, text };
  }
  const byItem = fitByItems({ ...(shorten(output, 0, false) as Json), truncated: true, fix: opts.fix }, maxBytes);
  if (byItem) return byItem;
  const marked = { ...((identifiersOf(output) as Json | undefined) ?? {}), truncated: true, fix: opts.fix };
  let text = JSON.stringify(marked);
  // The last rung keeps send_reason (the spec's list), and a reason holds up to 1,000 characters: a page of failed
  // messages passed the budget on reasons alone. They are cut like content, to the first length that fits.
  for (const length of REASON_LENGTHS) {
    if (fits(text, maxBytes)) break;
    const cut = cutReasons(marked, length) as Json;
    text = JSON.stringify(cut);
    if (fits(text, maxBytes) || length === 0) return { output: cut, text };
  }
  return { output: marked, text };
}

const REASON_LENGTHS = [256, 128, 64, 32, 16, 0] as const;

/**
 * A rung between content at 0 characters and identifiers only, a departure from the spec's ladder: the largest items
 * of the result's lists (a thread's messages, a page's) fall back to their identifiers one at a time, largest first,
 * until the result fits. Otherwise one message of a stranger's, 100 attachments with long names, left every other
 * message of its thread (and of every page it was on) as bare ids, the sender and subject of each included. Null
 * when no list holds objects, or even every item as identifiers would not fit (known without serializing: the
 * whole-result fallback then decides, as before).
 */
function fitByItems(marked: Json, maxBytes: number): FittedResult | null {
  const slots: Array<{ list: unknown[]; at: number; ids: Json; saves: number }> = [];
  for (const value of Object.values(marked)) {
    if (!Array.isArray(value)) continue;
    for (const [at, item] of value.entries()) {
      if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
      const ids = (identifiersOf(item) as Json | undefined) ?? {};
      slots.push({ list: value, at, ids, saves: minBytes(item) - minBytes(ids) });
    }
  }
  if (slots.length === 0 || minBytes(marked) - slots.reduce((n, x) => n + x.saves, 0) > maxBytes) return null;
  // The result's own arrays are replaced by copies, so the caller's output is never changed.
  const copy: Json = Object.fromEntries(Object.entries(marked).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
  const copyOf = new Map(Object.keys(marked).map((k) => [marked[k], copy[k] as unknown[]]));
  let text = JSON.stringify(copy);
  let size = Buffer.byteLength(text, "utf8");
  for (const slot of slots.sort((a, b) => b.saves - a.saves)) {
    if (size <= maxBytes) break;
    const list = copyOf.get(slot.list) as unknown[];
    size -= Buffer.byteLength(JSON.stringify(list[slot.at]), "utf8") - Buffer.byteLength(JSON.stringify(slot.ids), "utf8");
    list[slot.at] = slot.ids;
  }
  text = JSON.stringify(copy);
  return fits(text, maxBytes) ? { output: copy, text } : null;
}

function cutReasons(value: unknown, length: number): unknown {
  if (Array.isArray(value)) return value.map((v) => cutReasons(v, length));
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "send_reason" && typeof v === "string" ? cutCodePoints(v, length) : cutReasons(v, length);
  return out;
}

/**
 * One walk of an output for the ladder's bounds: `all` is minBytes of the whole; `unmarked`, of everything but the
 * content strings and the top-level `truncated` and `fix` (which a marked rung replaces); `content`, the length of
 * each content string. A content string cut to n code points keeps at least min(length, n) UTF-16 units, so
 * `unmarked + markers + Σ min(length, n)` is a lower bound of the marked rung's minBytes.
 */
function measure(output: Json): { all: number; unmarked: number; content: number[] } {
  const content: number[] = [];
  let unmarked = 0;
  const walk = (value: unknown, inContent: boolean): void => {
    if (typeof value === "string") {
      if (inContent) content.push(value.length);
      else unmarked += value.length;
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, inContent);
    } else if (value !== null && typeof value === "object") {
      for (const k in value) {
        unmarked += k.length;
        walk((value as Json)[k], inContent || BUDGET_CONTENT_KEYS.has(k));
      }
    }
  };
  let markersHere = 0;
  for (const k in output) {
    if (k === "truncated" || k === "fix") {
      markersHere += k.length + minBytes(output[k]);
      continue;
    }
    unmarked += k.length;
    walk(output[k], BUDGET_CONTENT_KEYS.has(k));
  }
  const all = unmarked + markersHere + content.reduce((n, l) => n + l, 0);
  return { all, unmarked, content };
}

/** A lower bound of the UTF-8 size of a value's JSON: each character of a key or string is at least one byte. */
function minBytes(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += minBytes(v);
  else for (const k in value) n += k.length + minBytes((value as Json)[k]);
  return n;
}

function shorten(value: unknown, length: number, content: boolean): unknown {
  if (typeof value === "string") return content ? cutCodePoints(value, length) : value;
  if (Array.isArray(value)) return value.map((v) => shorten(v, length, content));
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = shorten(v, length, content || BUDGET_CONTENT_KEYS.has(k));
  return out;
}

/** The first `n` code points: a surrogate pair is kept whole or dropped whole, never split. */
export function cutCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  const head = s.slice(0, n);
  // Most mail is in the Basic Multilingual Plane: there, code points are UTF-16 units and the slice is the answer.
  if (!hasSurrogate.test(head)) return head;
  let i = 0;
  for (let points = 0; points < n && i < s.length; points++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
  }
  return s.slice(0, i);
}
const hasSurrogate = /[\uD800-\uDFFF]/;

/**
 * Identifiers at every level, arrays kept in place (so `messages[3]` is still the fourth message). A branch holding
 * no identifier is dropped; in an array, an element holding none stays as `{}` to keep the positions.
 */
function identifiersOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(identifiersOf);
    return items.some((v) => v !== undefined) ? items.map((v) => v ?? {}) : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const out: Json = {};
  let kept = false;
  for (const [k, v] of Object.entries(value)) {
    const id = BUDGET_ID_KEYS.has(k) ? v : identifiersOf(v);
    if (id !== undefined) {
      out[k] = id;
      kept = true;
    }
  }
  return kept ? out : undefined;
}
