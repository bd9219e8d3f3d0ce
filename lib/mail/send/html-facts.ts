import { Parser } from "htmlparser2";

/**
 * What an approver must know of a message's HTML part, which most mail programs show instead of its text: its links
 * (where a click goes) and its words. A held send showed the text part alone, so "Thanks for your order." was
 * approved while the HTML sent a phishing link (found by helper-106). Lines for describeSend.
 */
export function htmlFacts(html: string): string[] {
  const links = new Set<string>();
  let words = "";
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === "a" && attribs.href) links.add(attribs.href.trim());
        if (name === "img" && attribs.src) links.add(attribs.src.trim());
        if (name === "script" || name === "style" || name === "head" || name === "title") hidden++;
      },
      ontext(text) {
        if (hidden === 0 && words.length < 2000) words += text;
      },
      onclosetag(name) {
        if (name === "script" || name === "style" || name === "head" || name === "title") hidden = Math.max(0, hidden - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const squeezed = words.replace(/\s+/g, " ").trim();
  return [
    "HTML part (most mail programs show it instead of the text below):",
    `  Links and images: ${links.size ? [...links].join(", ") : "none"}`,
    `  Words: ${squeezed.length > 600 ? `${squeezed.slice(0, 600)}…` : squeezed || "none"}`,
  ];
}
