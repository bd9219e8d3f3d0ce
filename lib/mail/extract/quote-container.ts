/**
 * Where mail clients start the quoted history in HTML: Gmail's `.gmail_quote`, Apple Mail's and Thunderbird's
 * `blockquote[type=cite]`, Outlook's `#divRplyFwdMsg` and `#appendonsend`, Thunderbird's `.moz-cite-prefix`, Yahoo's
 * `.yahoo_quoted`, and the `<hr id="stopSpelling">` of older Outlook web. Attribute names arrive lower-cased.
 */
export function isQuoteContainer(tag: string, attribs: Record<string, string>): boolean {
  const id = attribs.id;
  if (id === "divRplyFwdMsg" || id === "appendonsend") return true;
  if (tag === "hr" && id === "stopSpelling") return true;
  if (tag === "blockquote" && attribs.type?.toLowerCase() === "cite") return true;
  const cls = attribs.class;
  if (!cls) return false;
  return cls.split(/\s+/).some((c) => c === "gmail_quote" || c === "moz-cite-prefix" || c === "yahoo_quoted");
}
