import { describe, expect, it } from "vitest";
import { extractHtml } from "@/lib/mail/extract/extract-html";
import { extractReply } from "@/lib/mail/extract/extract-reply";
import { extractText } from "@/lib/mail/extract/extract-text";

/**
 * Reply extraction on input written to make it backtrack or go quadratic. Extraction is synchronous CPU at ingest,
 * so a slow input stalls the whole process: each case must finish well inside its (generous) timeout, and still
 * give the answer an ordinary message would.
 */
const keep = { keepWhole: false };
const MB = 1_000_000;
const quote = "On Mon, Jan 1, 2024 at 10:00 AM Bob <bob@sender.example> wrote:";

describe("reply extraction on hostile text", () => {
  // email-reply-parser's quote-header patterns backtrack polynomially in a line's length: 1 MB of "On " on one
  // line took about four minutes, 20,000 "On … wrote:" fragments 30 s.
  it("keeps whole a 1 MB line of 'On ' and one of 'On … wrote:' fragments", { timeout: 15_000 }, () => {
    const on = "On ".repeat(MB / 3);
    expect(extractText(on, keep)).toBe(on.trim());
    const fragments = `${quote} `.repeat(MB / (quote.length + 1));
    expect(extractText(fragments, keep)).toBe(fragments.trim());
  });

  it("keeps whole 1 MB lines of '>' inside text, of '~', of spaces and of '<'", { timeout: 15_000 }, () => {
    for (const line of [`a${">".repeat(MB)}a`, `${"~".repeat(MB)}x`, `On${" ".repeat(MB)}x`, `From: ${"<".repeat(MB)}`]) {
      expect(extractText(`Thanks!\n${line}`, keep)).toBe(`Thanks!\n${line}`);
    }
  });

  // Patterns such as `Op [\s\S]+? schreef [\s\S]+:` span lines: sixty 1,000-character lines of them took 7 s.
  it("keeps whole sixty 1,000-character lines of fragments that quote headers span lines with", { timeout: 15_000 }, () => {
    for (const words of ["Op schreef ", "abc. skrev ", "x on at "]) {
      const text = Array.from({ length: 60 }, () => words.repeat(1000 / words.length)).join("\n");
      expect(extractText(text, keep)).toBe(text);
    }
  });

  it("still cuts the quote after a reply whose paragraphs are lines of thousands of characters", () => {
    const paragraph = "This paragraph came as one line, as clients send them. ".repeat(60);
    const text = `${paragraph}\n\n${paragraph}\n\n${quote}\n> What about the invoice?\n> It is due.\n`;
    expect(extractText(text, keep)).toBe(`${paragraph.trim()}\n\n${paragraph.trim()}`);
  });

  // The parser drops trailing spaces from every line it gives back, so "nothing hidden in the head" never held for
  // such a head, and the extracted text ended after line 60.
  it("keeps whole a 100-line message whose lines end in spaces", () => {
    const text = Array.from({ length: 100 }, (_, i) => `Line ${i} of the report, `).join("\n");
    expect(extractText(text, keep)).toBe(text);
  });

  it("gives back a long line exactly, whatever private-use marks the sender wrote around it", () => {
    const paragraph = `\uE000${"x".repeat(2000)}\uE0000\uE000`;
    const text = `${paragraph}\n\uE0000\uE000\n\n${quote}\n> earlier\n`;
    expect(extractText(text, keep)).toBe(`${paragraph}\n\uE0000\uE000`);
  });
});

describe("reply extraction on hostile HTML", () => {
  // htmlparser2 unshifts its stack for every tag opened and searches it for every close tag that matches none:
  // 220,000 <div> and as many </b> (2 MB, mailparser's cap) took minutes.
  it("keeps whole HTML nested 220,000 deep with as many stray closing tags", { timeout: 15_000 }, () => {
    const html = `${"<div>".repeat(220_000)}${"</b>".repeat(220_000)}`;
    expect(extractHtml(html, keep)).toBe(html);
  });

  it("cuts at the quote and reads nothing after it, however deep the quote nests", { timeout: 15_000 }, () => {
    const html = `<p>Yes, Thursday.</p><div class="gmail_quote">${"<div>".repeat(220_000)}${"</b>".repeat(220_000)}</div>`;
    expect(extractHtml(html, keep)).toBe("<p>Yes, Thursday.</p>");
  });

  it("cuts ordinary nesting as before: 500 levels deep, closed on the way out", () => {
    const html = `${"<div>".repeat(500)}answer<blockquote type="cite">old</blockquote>${"</div>".repeat(500)}`;
    expect(extractHtml(html, keep)).toBe(`${"<div>".repeat(500)}answer${"</div>".repeat(500)}`);
  });

  it("extracts text, HTML and preview of one hostile message together", { timeout: 15_000 }, () => {
    const text = "On ".repeat(MB / 3);
    const out = extractReply({ text, html: `${"<span>".repeat(300_000)}x` }, keep);
    expect(out.extractedText).toBe(text.trim());
    expect(out.extractedHtml).toBe(`${"<span>".repeat(300_000)}x`);
    expect(out.preview).toHaveLength(200);
  });
});
