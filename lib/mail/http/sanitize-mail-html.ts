import sanitizeHtml from "sanitize-html";
import { nestsTooDeep } from "@/lib/mail/html-depth";

/**
 * Received HTML as the owner may see it (UI brief: mail HTML sanitised inside a sandboxed iframe). The CSP of
 * /mail-html already stops scripts and remote loads; this is the second wall, so a CSP mistake or a browser bug
 * alone shows nothing live: no script, style or embedding element, no event handler, only http(s)/mailto links and
 * no CSS that can load or compute anything.
 */

const TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  "img",
  "font",
  "center",
  "span",
  "div",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "td",
  "th",
  "colgroup",
  "col",
  "caption",
  "u",
  "s",
  "small",
  "big",
  "sub",
  "sup",
  "hr",
  "br",
];

const LAYOUT = [
  "align",
  "valign",
  "width",
  "height",
  "bgcolor",
  "border",
  "cellpadding",
  "cellspacing",
  "colspan",
  "rowspan",
  "dir",
  "title",
  "style",
  "class",
];

/** CSS that loads (url, image-set, @import) or runs (expression, behavior, -moz-binding) is dropped whole. */
const DANGEROUS_CSS = /url\s*\(|image-set|expression\s*\(|javascript:|behavior\s*:|-moz-binding|@import|\\/i;
// Each declaration's value as sanitize-html writes it: postcss drops a comment between spaces, so `url /**/ (` is
// written `url  (`, which the check of the attribute as sent (transformTags) did not see.
const SAFE_CSS_VALUE = new RegExp(`^(?![\\s\\S]*(?:${DANGEROUS_CSS.source}))[^;{}<>]*$`, "i");

/** Properties worth keeping for readable mail; anything else (position, filter, content…) is dropped. */
const CSS_PROPERTIES = [
  "color",
  "background-color",
  "font",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "line-height",
  "letter-spacing",
  "text-align",
  "text-decoration",
  "text-transform",
  "vertical-align",
  "white-space",
  "margin",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "padding",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "border",
  "border-top",
  "border-right",
  "border-bottom",
  "border-left",
  "border-color",
  "border-style",
  "border-width",
  "border-radius",
  "border-collapse",
  "border-spacing",
  "width",
  "max-width",
  "min-width",
  "height",
  "max-height",
  "display",
  "list-style-type",
];

export interface SanitizedMail {
  html: string;
  /** `<img>` with an http(s) source: shown only once the owner asks ("Load images"). */
  remoteImages: number;
}

/**
 * Longer HTML is shown as its text: sanitize-html walks it synchronously, about half a second a megabyte, and once
 * for each message of a thread page as well as for each GET /mail-html, so 24 MB of flat `<span style>` (under the
 * 25 MB message limit, and not nested: nestsTooDeep let it through) held the server's event loop for 17 s a view.
 * A million characters is ten times what Gmail shows before clipping (102 KB), so real mail stays far below it
 * (found by helper-117).
 */
export const MAX_MAIL_HTML_CHARS = 1_000_000;

/**
 * HTML a browser would not build (nested too deeply) or that is too long to sanitise at once is shown as its text,
 * escaped: sanitize-html on 220,000 nested `<div>` held the owner's request, and the server's event loop, for about
 * a minute. A tag is `<` to the next `<` or `>`: `<[^>]*>` went back over the rest of the input from every `<` that
 * closed nowhere, 10 s for 100,000 of them (found by helper-117).
 */
function asText(html: string, why: string): SanitizedMail {
  // The first 4 MB give far more text than is shown, in about 50 ms where all of 24 MB took 0.7 s.
  const text = html
    .slice(0, 4 * MAX_MAIL_HTML_CHARS)
    .replace(/<[^<>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100_000);
  const escaped = text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
  return { html: `<p><em>${why}; here is its text.</em></p><p>${escaped}</p>`, remoteImages: 0 };
}

/** Why HTML is shown as its text rather than sanitized, or null. */
export function shownAsText(html: string): string | null {
  // Nesting shows within the first part already, and nestsTooDeep reads all of flat HTML.
  if (nestsTooDeep(html.slice(0, MAX_MAIL_HTML_CHARS))) return "This message's HTML nests more deeply than a browser shows";
  if (html.length > MAX_MAIL_HTML_CHARS) return "This message's HTML is too large to show";
  return null;
}

export function sanitizeMailHtml(html: string): SanitizedMail {
  const why = shownAsText(html);
  if (why) return asText(html, why);
  let remoteImages = 0;
  const clean = sanitizeHtml(html, {
    allowedTags: TAGS,
    // Their contents are dropped too, not shown as text.
    nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "head", "template", "iframe", "object", "embed", "svg", "math"],
    allowedAttributes: {
      "*": LAYOUT,
      a: ["href", "name", "target", "rel", ...LAYOUT],
      img: ["src", "alt", "width", "height", ...LAYOUT],
      font: ["color", "face", "size"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https", "data", "cid"] },
    allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
    allowProtocolRelative: false,
    allowedStyles: { "*": Object.fromEntries(CSS_PROPERTIES.map((p) => [p, [SAFE_CSS_VALUE]])) },
    transformTags: {
      // Links leave the sandbox in a new tab without telling the target where they came from.
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer nofollow" } }),
      // A browser trims a source's spaces and line breaks: ` https://…` loaded once images were allowed, yet was not
      // counted, so "Load images" never showed for it. A relative source would load from this server: dropped.
      // `cid:` names a part of the message itself (inline-cid-images.ts turns it into data).
      img: (tagName, { src, ...attribs }) => {
        const source = src?.trim();
        return { tagName, attribs: source && /^(https?|data|cid):/i.test(source) ? { ...attribs, src: source } : attribs };
      },
      // A style that tries to load or run anything loses all its declarations, entities already decoded here
      // (`u&#114;l(`). This was a regex over the serialized output, which also matched text, where sanitize-html
      // leaves `"` as is: `Set style="…url(…)"` in a sentence was cut out, and an unclosed quote took the paragraphs
      // and links after it (found by helper-117).
      "*": (tagName, attribs) => {
        if (!DANGEROUS_CSS.test(attribs.style ?? "")) return { tagName, attribs };
        const { style: _, ...rest } = attribs;
        return { tagName, attribs: rest };
      },
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === "img" && /^https?:/i.test(frame.attribs.src ?? "")) remoteImages++;
      return false;
    },
  });
  return { html: clean, remoteImages };
}
