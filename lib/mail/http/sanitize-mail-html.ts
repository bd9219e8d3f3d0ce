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
const SAFE_CSS_VALUE = /^[^;{}<>]*$/;

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
 * HTML nested deeper than a browser builds (nestsTooDeep) is shown as its text, escaped: sanitize-html on 220,000
 * nested `<div>` held the owner's request, and the server's event loop, for about a minute.
 */
function tooDeepAsText(html: string): SanitizedMail {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100_000);
  const escaped = text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
  return { html: `<p><em>This message's HTML nests more deeply than a browser shows; here is its text.</em></p><p>${escaped}</p>`, remoteImages: 0 };
}

export function sanitizeMailHtml(html: string): SanitizedMail {
  if (nestsTooDeep(html)) return tooDeepAsText(html);
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
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === "img" && /^https?:/i.test(frame.attribs.src ?? "")) remoteImages++;
      return false;
    },
  });
  // allowedStyles checks each value against its pattern; what can still load is removed here, the whole attribute.
  const html2 = clean.replace(/\sstyle="([^"]*)"/g, (whole, css: string) => (DANGEROUS_CSS.test(decodeEntities(css)) ? "" : whole));
  return { html: html2, remoteImages };
}

const decodeEntities = (s: string) =>
  s.replace(/&(#x?[0-9a-f]+|quot|amp|lt|gt|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };
    if (e[0] !== "#") return named[e.toLowerCase()] ?? "";
    const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : "";
  });
