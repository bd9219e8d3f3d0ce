import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  BUDGET_ID_KEYS,
  BUDGET_CONTENT_KEYS,
  cutCodePoints,
  fitMcpResult,
  fitWithin,
  MCP_RESULT_BYTES,
  recordCut,
  type ContentRead,
} from "@/lib/tools/result-budget";

const FIX = "GET /api/v1/threads/thd_1 returns the full thread.";
const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const filler = (n: number, seed = "Lorem ipsum dolor sit amet, 😀 consectetur. ") => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);

/** A get_thread-like result: `messages` messages of about `size` characters of content each. */
function thread(messages: number, size: number) {
  return {
    thread_id: "thd_1",
    inbox_id: "mbx_1",
    subject: "Quarterly numbers",
    preview: filler(200),
    labels: ["received", "unread"],
    count: messages,
    next_page_token: "pt_next",
    messages: Array.from({ length: messages }, (_, i) => ({
      message_id: `msg_${i}`,
      thread_id: "thd_1",
      inbox_id: "mbx_1",
      from: "Ann <ann@example.com>",
      subject: `Re: Quarterly numbers (${i})`,
      labels: ["received"],
      preview: filler(200),
      text: filler(size / 3),
      html: `<p>${filler(size / 3 - 7)}</p>`,
      extracted_text: filler(size / 6),
      extracted_html: `<p>${filler(size / 6 - 7)}</p>`,
      attachments: [{ attachment_id: `att_${i}`, filename: "numbers.pdf", size: 1234 }],
    })),
  };
}

afterEach(() => vi.restoreAllMocks());

describe("fitMcpResult", () => {
  it("returns a result that fits as it is: same object, its plain JSON, not marked", () => {
    const output = thread(2, 600);
    const fitted = fitMcpResult(output, { fix: FIX });
    expect(fitted.output).toBe(output);
    expect(fitted.text).toBe(JSON.stringify(output));
    expect(fitted.output).not.toHaveProperty("truncated");
  });

  it("fits a 12 × 30 KB thread under 19,000 bytes, marked truncated with the fix, non-content fields untouched", () => {
    const output = thread(12, 30_000);
    expect(bytes(JSON.stringify(output))).toBeGreaterThan(12 * 30_000);
    const { output: fitted, text } = fitMcpResult(output, { fix: FIX });
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(JSON.parse(text)).toEqual(fitted);
    expect(fitted).toMatchObject({ truncated: true, fix: FIX });
    // 512 characters of five fields in twelve messages is over 19,000 bytes: this thread lands on the 0 rung.
    const messages = fitted.messages as Record<string, unknown>[];
    for (const [i, m] of messages.entries()) {
      expect(m).toMatchObject({ text: "", html: "", extracted_text: "", extracted_html: "", preview: "" });
      const { text: _t, html: _h, extracted_text: _et, extracted_html: _eh, preview: _p, ...rest } = output.messages[i];
      expect(m).toMatchObject(rest);
    }
    expect(fitted).toMatchObject({ thread_id: "thd_1", subject: "Quarterly numbers", labels: ["received", "unread"], next_page_token: "pt_next" });
    // The caller's object is not changed.
    expect(output.messages[0].text.length).toBe(10_000);
  });

  it("stops at 2048 characters when that fits", () => {
    const text = filler(30_000, "abcdefghij");
    const { output } = fitMcpResult({ message_id: "msg_1", subject: "s", text }, { fix: FIX });
    expect(output).toEqual({ message_id: "msg_1", subject: "s", text: text.slice(0, 2048), truncated: true, fix: FIX });
  });

  it("goes to 512 characters only when 2048 is still too large", () => {
    // Twelve fields of 2048 characters are 24.6 KB; of 512, 6 KB.
    const messages = Array.from({ length: 12 }, (_, i) => ({ message_id: `msg_${i}`, preview: filler(20_000, "x") }));
    const { output, text } = fitMcpResult({ messages }, { fix: FIX });
    expect((output.messages as { preview: string }[]).map((m) => m.preview.length)).toEqual(Array(12).fill(512));
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
  });

  it("shortens content keys at any depth and inside arrays, and no other key", () => {
    const long = filler(5_000, "y");
    const output = { a: { b: [{ c: { text: long, texts: long } }] }, html: [long, { note: long }], preview: long };
    const { output: fitted } = fitMcpResult(output, { fix: FIX, maxBytes: 16_000 });
    expect(fitted).toEqual({
      a: { b: [{ c: { text: long.slice(0, 2048), texts: long } }] },
      html: [long.slice(0, 2048), { note: long.slice(0, 2048) }],
      preview: long.slice(0, 2048),
      truncated: true,
      fix: FIX,
    });
  });

  it("never splits a surrogate pair", () => {
    // With one ASCII character first, cutting at 2048 UTF-16 units would leave half of an emoji at the end.
    const text = `a${"😀".repeat(20_000)}`;
    const { output } = fitMcpResult({ message_id: "msg_1", text }, { fix: FIX });
    const cut = output.text as string;
    expect(cut).toBe(`a${"😀".repeat(2047)}`);
    expect([...cut].length).toBe(2048);
    expect(loneSurrogate.test(cut)).toBe(false);
    expect(cutCodePoints("😀😀", 1)).toBe("😀");
    expect(cutCodePoints("\uD83D", 1)).toBe("\uD83D");
    expect(cutCodePoints("a😀b", 0)).toBe("");
  });

  it("falls back to identifiers at every level, keeping array positions and next_page_token", () => {
    const output = {
      inbox_id: "mbx_1",
      count: 3,
      limit: 10,
      next_page_token: "pt_next",
      // Too large by itself and not content: no shortening helps.
      subject: filler(25_000, "z"),
      messages: [
        { message_id: "msg_1", thread_id: "thd_1", send_status: "sent", send_reason: null, subject: "a", text: "x" },
        { note: "no identifier here", labels: ["x"] },
        { message_id: "msg_3", draft: { draft_id: "drf_1", html: "<p>" } },
      ],
      labels: ["received"],
      stats: { size: 12 },
    };
    const calls = vi.spyOn(JSON, "stringify");
    const { output: fitted, text } = fitMcpResult(output, { fix: FIX });
    expect(calls.mock.calls.length).toBeLessThanOrEqual(5);
    expect(fitted).toEqual({
      inbox_id: "mbx_1",
      count: 3,
      limit: 10,
      next_page_token: "pt_next",
      messages: [
        { message_id: "msg_1", thread_id: "thd_1", send_status: "sent", send_reason: null },
        {},
        { message_id: "msg_3", draft: { draft_id: "drf_1" } },
      ],
      truncated: true,
      fix: FIX,
    });
    expect(text).toBe(JSON.stringify(fitted));
  });

  // Found by helper-100: the ladder shortens content only, so one message a stranger sent into the thread with 100
  // attachments of long names took the whole result to identifiers: every other message lost its sender and subject.
  it("falls back to identifiers for the largest items only, while the rest of the list keeps its fields", () => {
    const attachment = (i: number) => ({ attachment_id: `att_${i}`, filename: `${"x".repeat(200)}-${i}.pdf`, content_type: "application/pdf", size: 1000 });
    const message = (i: number, attachments: unknown[]) => ({
      message_id: `msg_${i}`,
      thread_id: "thd_1",
      from: `person${i}@example.com`,
      subject: `Re: Order ${i}`,
      text: filler(3_000),
      attachments,
    });
    const messages = [
      message(0, []),
      message(1, []),
      message(
        2,
        Array.from({ length: 100 }, (_, i) => attachment(i)),
      ),
      message(3, []),
    ];
    const output = { thread_id: "thd_1", subject: "Order", messages };
    const { output: fitted, text } = fitMcpResult(output, { fix: FIX });
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(text).toBe(JSON.stringify(fitted));
    expect(fitted).toMatchObject({ thread_id: "thd_1", subject: "Order", truncated: true, fix: FIX });
    const kept = fitted.messages as Record<string, unknown>[];
    expect(kept[2]).toEqual({ message_id: "msg_2", thread_id: "thd_1" });
    for (const i of [0, 1, 3]) expect(kept[i]).toMatchObject({ message_id: `msg_${i}`, from: `person${i}@example.com`, subject: `Re: Order ${i}`, text: "" });
    // The caller's output is untouched.
    expect(messages[2].attachments).toHaveLength(100);
  });

  it("cuts send_reason in the identifiers when the reasons alone pass the budget: 100 failed messages with 1,000-character reasons", () => {
    const messages = Array.from({ length: 100 }, (_, i) => ({
      message_id: `msg_${String(i).padStart(22, "0")}`,
      thread_id: `thd_${String(i).padStart(22, "0")}`,
      subject: `Invoice ${i}`,
      preview: filler(200),
      send_status: "failed",
      send_reason: `550 5.1.1 <ann${i}@example.com>: ${filler(960, "mailbox unavailable 😀 ")}`,
    }));
    const { output, text } = fitMcpResult({ inbox_id: "mbx_1", count: 100, limit: 100, messages }, { fix: FIX });
    expect(bytes(text)).toBeLessThanOrEqual(MCP_RESULT_BYTES);
    expect(text).toBe(JSON.stringify(output));
    const kept = output.messages as { message_id: string; send_status: string; send_reason: string }[];
    expect(kept.map((m) => m.message_id)).toEqual(messages.map((m) => m.message_id));
    for (const [i, m] of kept.entries()) {
      expect(Object.keys(m).sort()).toEqual(["message_id", "send_reason", "send_status", "thread_id"]);
      expect(m.send_reason.length).toBeGreaterThan(0);
      expect(messages[i].send_reason.startsWith(m.send_reason)).toBe(true);
      expect(loneSurrogate.test(m.send_reason)).toBe(false);
    }
  });

  it("on any output: the text is the result, which fits or holds identifiers only, and every string kept is a whole-code-point prefix of the original", () => {
    const key = fc.constantFrom("text", "html", "extracted_text", "preview", "message_id", "next_page_token", "count", "subject", "messages", "note");
    const leaf = fc.oneof(
      fc
        // Long strings, cheaply: a random run of any code points (astral ones included), repeated.
        .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 24 }), fc.integer({ min: 1, max: 400 }))
        .map(([run, times]) => run.repeat(times)),
      fc.string({ unit: "grapheme", maxLength: 300 }),
      fc.integer(),
      fc.constant(null),
    );
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 8 }), fc.dictionary(key, tie("node"), { maxKeys: 6 })),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, node, { maxKeys: 8 }), fc.integer({ min: 200, max: 20_000 }), (output, maxBytes) => {
        const before = JSON.stringify(output);
        const fitted = fitMcpResult(output, { fix: FIX, maxBytes });
        expect(JSON.stringify(output)).toBe(before);
        expect(fitted.text).toBe(JSON.stringify(fitted.output));
        if (fitted.output === output) {
          expect(bytes(fitted.text)).toBeLessThanOrEqual(maxBytes);
          return;
        }
        const { truncated, fix, ...rest } = fitted.output;
        expect({ truncated, fix }).toEqual({ truncated: true, fix: FIX });
        const idsOnly = bytes(fitted.text) > maxBytes;
        expect(problems(output, rest, idsOnly)).toEqual([]);
      }),
      { seed: 16, numRuns: 300 },
    );
  });
});

/** What a budgeted read returns: each content field cut to `prefix` code points, the cut ones' full lengths recorded. */
function readWithPrefix(value: unknown, content: ContentRead, isContent = false): unknown {
  if (typeof value === "string" && isContent) {
    recordCut(content, [[content.prefix === null ? value : cutCodePoints(value, content.prefix), Buffer.byteLength(value, "utf8")]]);
    return content.prefix === null ? value : cutCodePoints(value, content.prefix);
  }
  if (Array.isArray(value)) return value.map((v) => readWithPrefix(v, content));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readWithPrefix(v, content, BUDGET_CONTENT_KEYS.has(k))]));
}

describe("fitWithin: the ladder over content read as prefixes", () => {
  it("gives exactly fitMcpResult's result on the full content, rereading only when a rung that could fit needs more", () => {
    let rereads = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 40_000 }),
        fc.constantFrom(0, 1, 316, 380, 512, 1583, 2048, 19_000),
        fc.boolean(),
        (messages, size, prefix, astral) => {
          const full = astral ? JSON.parse(JSON.stringify(thread(messages, size)).replaceAll("Lorem", "😀😀")) : thread(messages, size);
          const expected = fitMcpResult(full, { fix: FIX });
          let content: ContentRead = { prefix, cut: [] };
          for (let reads = 1; ; reads++) {
            const fit = fitWithin(readWithPrefix(full, content) as Record<string, unknown>, { fix: FIX, content });
            if (!("reread" in fit)) {
              expect(fit).toEqual(expected);
              // A reread happens only when a shortened rung or the whole result could fit: never for identifiers only.
              if (reads > 1) expect(expected.output).toHaveProperty("messages.0.text");
              return;
            }
            expect(reads).toBeLessThan(3);
            rereads++;
            content = { prefix: fit.reread, cut: [] };
          }
        },
      ),
      { seed: 16, numRuns: 300 },
    );
    expect(rereads).toBeGreaterThan(10);
  });

  it("a 50 × 20 KB thread read with 380-character prefixes needs no reread and gives identifiers", () => {
    const content: ContentRead = { prefix: 380, cut: [] };
    const fit = fitWithin(readWithPrefix(thread(50, 20_000), content) as Record<string, unknown>, { fix: FIX, content });
    expect(fit).toEqual(fitMcpResult(thread(50, 20_000), { fix: FIX }));
    expect(content.cut).toHaveLength(200);
  });
});

/**
 * Where `kept` is not drawn from `original`: each string must be a prefix of the one at the same place, never ending
 * inside a surrogate pair, and whole in an identifiers-only result, whose leaves all sit under identifier keys.
 */
function problems(original: unknown, kept: unknown, idsOnly: boolean, at = "", underId = false): string[] {
  if (typeof kept === "string") {
    if (typeof original !== "string" || !original.startsWith(kept)) return [`${at} is not a prefix of the original`];
    if ((idsOnly || underId) && kept !== original) return [`${at} was shortened in an identifiers-only result`];
    const split = kept.length < original.length && /[\uD800-\uDBFF]$/.test(kept) && /^[\uDC00-\uDFFF]/.test(original.slice(kept.length));
    return split ? [`${at} ends inside a surrogate pair`] : [];
  }
  if (kept === null || typeof kept !== "object") return kept === original ? [] : [`${at} changed`];
  // An array element without identifiers stays as `{}` to keep positions.
  if (!Array.isArray(kept) && Object.keys(kept).length === 0) return [];
  if (original === null || typeof original !== "object") return [`${at} is not in the original`];
  return Object.entries(kept).flatMap(([k, v]) => {
    const id = underId || (idsOnly && BUDGET_ID_KEYS.has(k));
    const stray = idsOnly && !id && (v === null || typeof v !== "object") ? [`${at}.${k} is kept but is no identifier`] : [];
    return [...stray, ...problems((original as Record<string, unknown>)[k], v, idsOnly, `${at}.${k}`, id)];
  });
}
