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

const fits = (text: string, maxBytes: number) => text.length <= maxBytes / 3 || Buffer.byteLength(text, "utf8") <= maxBytes;

/**
 * Keeps an MCP result within `maxBytes` by the spec's ladder: content fields shortened to 2048, 512, then 0
 * characters; then identifiers only. A shortened result says so (`truncated: true`) and carries the tool's `fix`
 * (where the full content is). At most five serializations, each O(n), and none of a candidate that cannot fit;
 * the input object is never changed.
 */
export function fitMcpResult(output: Json, opts: { fix: string; maxBytes?: number }): FittedResult {
  const maxBytes = opts.maxBytes ?? MCP_RESULT_BYTES;
  // A candidate whose characters alone exceed the budget cannot fit: serializing a 1 MB thread to learn that costs
  // more than the rest of the ladder, so the bound decides first.
  if (minBytes(output) <= maxBytes) {
    const text = JSON.stringify(output);
    if (fits(text, maxBytes)) return { output, text };
  }
  let shortened: unknown = output;
  for (const length of LENGTHS) {
    // Each rung shortens the previous one: the same result as from the original, with less to copy.
    shortened = shorten(shortened, length, false);
    const marked = { ...(shortened as Json), truncated: true, fix: opts.fix };
    if (minBytes(marked) > maxBytes) continue;
    const text = JSON.stringify(marked);
    if (fits(text, maxBytes)) return { output: marked, text };
  }
  const marked = { ...((identifiersOf(output) as Json | undefined) ?? {}), truncated: true, fix: opts.fix };
  return { output: marked, text: JSON.stringify(marked) };
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
