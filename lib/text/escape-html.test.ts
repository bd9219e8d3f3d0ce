import { expect, it } from "vitest";
import { escapeHtml } from "@/lib/text/escape-html";

it("escapes markup and both quotes, ampersands first so entities are not escaped twice", () => {
  expect(escapeHtml(`<a href="x?a=1&b='2'">Tom & Jerry</a>`)).toBe("&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;Tom &amp; Jerry&lt;/a&gt;");
  expect(escapeHtml("plain €“text”")).toBe("plain €“text”");
});
