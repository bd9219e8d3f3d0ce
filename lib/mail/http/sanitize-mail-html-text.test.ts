import { describe, expect, it } from "vitest";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";

/**
 * Mail text that looks like an attribute is shown as sent: style values are filtered as attributes, inside
 * sanitize-html. Before, a regex over the serialized output (`/\sstyle="([^"]*)"/g`) also matched text, where
 * sanitize-html leaves `"` unescaped, so a sentence quoting ` style="…url(…)"` was cut out and an unclosed quote took
 * the paragraphs and the link after it: the owner did not see what was sent (found by helper-117).
 */
describe("mail HTML text that looks like an attribute", () => {
  it("keeps a sentence that quotes CSS", () => {
    const out = sanitizeMailHtml(`<p>Set style="background:url(a.png)" on the div.</p>`).html;
    expect(out).toBe(`<p>Set style="background:url(a.png)" on the div.</p>`);
  });

  it("does not swallow the following paragraphs and a link", () => {
    const html = `<p>Use style="url(x) in CSS</p><p>Pay only to IBAN DE00 1234.</p><a href="https://example.com/">details</a>`;
    const out = sanitizeMailHtml(html).html;
    expect(out).toContain("Pay only to IBAN DE00 1234.");
    expect(out).toContain('<a href="https://example.com/"');
  });

  it("still drops a style attribute that can load, keeping the element's other attributes in order", () => {
    expect(sanitizeMailHtml('<p class="a" style="color: red; background-color: url(x)" title="t">x</p>').html).toBe('<p class="a" title="t">x</p>');
    expect(sanitizeMailHtml('<p class="a" style="color: red" title="t">x</p>').html).toBe('<p class="a" style="color:red" title="t">x</p>');
    // A comment between spaces is dropped by the CSS parser: the declaration is, whatever it joins into.
    expect(sanitizeMailHtml('<p style="color: red; background-color: url /**/ (x)">x</p>').html).toBe('<p style="color:red">x</p>');
  });
});
