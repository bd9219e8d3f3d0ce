import { describe, expect, it } from "vitest";
import { MAX_MAIL_HTML_CHARS, sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";

/**
 * HTML longer than MAX_MAIL_HTML_CHARS is shown as its escaped text, as HTML nested too deeply is, before
 * sanitize-html walks it. Before, only nesting was guarded: a stranger's 24 MB of flat `<span style>` (under the
 * 25 MB message limit) was sanitised whole, synchronously, for each message of the thread page and each GET
 * /mail-html, about 17 s a pass during which every other request waited (found by helper-117).
 */
describe("sanitizeMailHtml on flat HTML over the size limit", () => {
  it("shows its text, bounded, instead of sanitising it", () => {
    const unit = `<span style="color:red" onclick="x()">Pay &lt;now&gt;</span>`;
    const html = unit.repeat(Math.ceil((MAX_MAIL_HTML_CHARS + 1) / unit.length));
    const out = sanitizeMailHtml(html);
    expect(out.html).toContain("too large to show");
    expect(out.html).toContain("Pay &amp;lt;now&amp;gt; Pay");
    expect(out.html).not.toMatch(/<span|onclick/);
    expect(out.html.length).toBeLessThanOrEqual(200_000);
    expect(out.remoteImages).toBe(0);
  });

  it("still sanitises HTML of a long newsletter", () => {
    const html = `<span style="color:red">x</span>`.repeat(3_000);
    expect(sanitizeMailHtml(html).html).toBe(html);
  });

  it("reads a run of unclosed `<` in linear time", () => {
    const out = sanitizeMailHtml("<".repeat(MAX_MAIL_HTML_CHARS + 1));
    expect(out.html).toContain("too large to show");
    expect(out.html.length).toBeLessThanOrEqual(500_000);
  });
});
