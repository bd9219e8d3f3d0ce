import { htmlText } from "@/lib/mail/inbound/html-text";
import { simpleParser, type AddressObject, type HeaderValue, type ParsedMail } from "mailparser";
import addressparser from "nodemailer/lib/addressparser";
import { noNul } from "@/lib/mail/mail-blob";
import { plainText, plainTextBody } from "@/lib/mail/inbound/plain-text-body";
import { toWellFormed } from "@/lib/text/well-formed";

export interface ParsedAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
  contentId: string | null;
  inline: boolean;
}

export interface ParsedMessage {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  from: { address: string; name: string | null } | null;
  to: string[];
  cc: string[];
  replyTo: string[];
  subject: string | null;
  date: Date | null;
  text: string | null;
  html: string | null;
  /** The headers that matter, lower-case names. Authentication-Results is never among them: we compute our own. */
  headers: Record<string, string>;
  autoSubmitted: boolean;
  /** `X-Spam-Flag: YES` or `X-Spam-Status: Yes…`: believed only from a trusted relay (categorize-inbound.ts). */
  spamFlagged: boolean;
  /** Top-level content type with its parameters, e.g. `multipart/report; report-type=delivery-status`. */
  contentType: string | null;
  attachments: ParsedAttachment[];
  parseError: string | null;
}

const KEPT_HEADERS = [
  "message-id",
  "in-reply-to",
  "references",
  "date",
  "auto-submitted",
  "precedence",
  "list-id",
  "list-unsubscribe",
  "x-auto-response-suppress",
  "content-type",
  "return-path",
];

/** `<a@b>` → `a@b`: ids are stored and compared without brackets. */
export const bareId = (id: string) => id.trim().replace(/^<|>$/g, "").trim();

/**
 * A Message-ID as stored, or null when it is not one: visible ASCII only, no angle brackets, no whitespace, at most
 * 500 characters. Anything else is dropped rather than repaired (`<x>\r\nBcc: y@evil>`), so nothing a sender put in
 * an id can reach the In-Reply-To or References of a later reply.
 */
export function cleanId(id: string | null | undefined): string | null {
  if (!id) return null;
  const bare = bareId(id);
  return /^[\x21-\x3b\x3d\x3f-\x7e]{1,500}$/.test(bare) ? bare : null;
}

/**
 * The ids of an In-Reply-To or References header as written: each `<…>`, or whitespace-separated words when the
 * sender used no brackets at all. Text between bracketed ids (`<x> Bcc: y@evil>`) is no id and never kept.
 */
export function idList(value: string | null | undefined): string[] {
  if (!value) return [];
  const bracketed = [...value.matchAll(/<([^<>]*)>/g)].map((m) => m[1]);
  const words = bracketed.length > 0 ? bracketed : value.split(/\s+/);
  return [...new Set(words.map(cleanId).filter((x): x is string => x !== null))];
}

/**
 * References kept of a message: the thread's root and the newest 49, as our own replies write them
 * (reply-request.ts). Threading reads only the newest 50 (find-related.ts); a sender's 25 MB of ids would
 * otherwise be one jsonb row and as many GIN index entries, written inside a commit shared with other mail.
 */
const MAX_REFERENCES = 50;

const keptReferences = (ids: string[]) => (ids.length <= MAX_REFERENCES ? ids : [ids[0], ...ids.slice(ids.length - (MAX_REFERENCES - 1))]);

/**
 * A Content-ID as stored: a msg-id (RFC 2392), visible ASCII like a Message-ID, else none. A sender's NUL in it
 * failed the attachment row on every delivery attempt, so the message was answered 451 for ever and never arrived.
 */
const cleanContentId = (id: string | undefined) => (id ? cleanId(id) : null);

/**
 * Parses as far as possible: mailparser is lenient with broken MIME; if it still throws, the header block is read by
 * hand and the body kept as text, and `parseError` says what failed. The raw bytes are stored regardless. A message
 * that is one part of plain text (plain-text-body.ts) has only its header block parsed by mailparser; its text is
 * the body as mailparser would have read it (the test holds the two to the same result).
 */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  const plain = plainTextBody(raw);
  return wellFormedText(await (plain ? parseWith(raw, plain.head, plainText(plain.body)) : parseWith(raw, raw)));
}

/** mailparser over the whole message, without the plain text path: what parseMessage must equal. */
export const parseWholeMessage = async (raw: Buffer): Promise<ParsedMessage> => wellFormedText(await parseWith(raw, raw));

/**
 * Every text of a parsed message as valid Unicode: a UTF-16 part (or encoded word) can decode to a lone surrogate,
 * which Postgres refuses inside JSON (the message's event, its thread summary), so such mail failed with 451 on
 * every attempt and never arrived. Each one becomes U+FFFD, as the text columns would store it anyway.
 */
function wellFormedText(m: ParsedMessage): ParsedMessage {
  const t = (s: string | null) => (s === null ? null : toWellFormed(s));
  return {
    ...m,
    from: m.from && { address: toWellFormed(m.from.address), name: t(m.from.name) },
    to: m.to.map(toWellFormed),
    cc: m.cc.map(toWellFormed),
    replyTo: m.replyTo.map(toWellFormed),
    subject: t(m.subject),
    text: t(m.text),
    html: t(m.html),
    headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, toWellFormed(v)])),
    contentType: t(m.contentType),
    attachments: m.attachments.map((a) => ({ ...a, filename: t(a.filename), contentType: toWellFormed(a.contentType), contentId: t(a.contentId) })),
    parseError: t(m.parseError),
  };
}

/** `input` to mailparser (the whole message, or its header block when the text is given). */
async function parseWith(raw: Buffer, input: Buffer, text?: string | null): Promise<ParsedMessage> {
  let mail: ParsedMail;
  try {
    // Its HTML-to-text conversion runs on every HTML part, unbounded in total: htmlText makes one, bounded.
    mail = await simpleParser(input, { skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true, skipHtmlToText: true });
  } catch (err) {
    return fallbackParse(raw, err instanceof Error ? err.message : String(err), await headerSubject(raw));
  }
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines ?? []) {
    if (KEPT_HEADERS.includes(line.key) && !(line.key in headers)) headers[line.key] = unfold(line.line.slice(line.line.indexOf(":") + 1));
  }
  const refs = mail.references === undefined ? [] : Array.isArray(mail.references) ? mail.references : [mail.references];
  const autoSubmitted = (headers["auto-submitted"] ?? "no").trim().toLowerCase();
  return {
    messageId: cleanId(mail.messageId),
    // From the header as written (unfolded): mailparser re-brackets stray words, which would pass as ids.
    inReplyTo: idList(headers["in-reply-to"] ?? mail.inReplyTo)[0] ?? null,
    references: keptReferences(idList(headers.references ?? refs.join(" "))),
    from: firstAddress(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject ?? null,
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: text === undefined ? messageText(mail) : text,
    html: typeof mail.html === "string" ? mail.html : null,
    headers,
    autoSubmitted: autoSubmitted !== "" && !autoSubmitted.startsWith("no"),
    spamFlagged: spamFlagged(headerText(mail.headers.get("x-spam-flag")), headerText(mail.headers.get("x-spam-status"))),
    contentType: headerText(mail.headers.get("content-type")),
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? null,
      contentType: a.contentType || "application/octet-stream",
      content: a.content,
      contentId: cleanContentId(a.contentId),
      inline: a.contentDisposition === "inline" || a.related === true,
    })),
    parseError: null,
  };
}

/**
 * The text parts, or for mail with no text, its HTML's text (htmlText). HTML parts beside text parts in a mixed
 * message (rare) are no longer converted into the text too: they stay in `html`.
 */
function messageText(mail: ParsedMail): string | null {
  if (mail.text?.trim() || typeof mail.html !== "string") return mail.text ?? null;
  return htmlText(mail.html) || null;
}

const spamFlagged = (flag: string | null | undefined, status: string | null | undefined) => /^\s*yes\b/i.test(flag ?? "") || /^\s*yes\b/i.test(status ?? "");

const unfold = (v: string) => v.replace(/\r?\n[ \t]+/g, " ").trim();

function addresses(v: AddressObject | AddressObject[] | undefined): string[] {
  if (!v) return [];
  const list = (Array.isArray(v) ? v : [v]).flatMap((o) => o.value);
  return list
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((a) => a.address?.trim())
    .filter((a): a is string => !!a);
}

function firstAddress(v: AddressObject | undefined): ParsedMessage["from"] {
  const a = v?.value.find((x) => x.address);
  return a?.address ? { address: a.address.trim(), name: a.name || null } : null;
}

function headerText(v: HeaderValue | undefined): string | null {
  if (!v) return null;
  if (typeof v === "string") return v;
  if (typeof v === "object" && "value" in v && "params" in v) {
    return [v.value, ...Object.entries(v.params).map(([k, p]) => `${k}=${p}`)].join("; ");
  }
  return null;
}

/**
 * Last resort for input mailparser rejects: unfolded header lines, the rest as text. NULs are dropped first, as
 * mailparser drops them: an address holding one was refused by Postgres (text and jsonb), every attempt with 451.
 */
/**
 * The subject as mailparser decodes it (encoded words, charsets), from the header block alone: a message it gives up
 * on whole (1,001 parts, say) has headers it reads well, and the raw `=?UTF-8?B?…?=` showed as the subject. Null
 * when even the header block is too much for it (a 3 MB header).
 */
async function headerSubject(raw: Buffer): Promise<string | null> {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0 || end > 1_000_000) return null;
  try {
    return (await simpleParser(raw.subarray(0, end + 4), { skipTextToHtml: true })).subject ?? null;
  } catch {
    return null;
  }
}

function fallbackParse(raw: Buffer, error: string, decodedSubject: string | null): ParsedMessage {
  const s = noNul(raw.toString("latin1"));
  const split = s.search(/\r?\n\r?\n/);
  const head = split < 0 ? s : s.slice(0, split);
  const body = split < 0 ? "" : s.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      const key = line.slice(0, colon).trim().toLowerCase();
      if (!(key in headers)) headers[key] = line.slice(colon + 1).trim();
    }
  }
  // The parser mailauth reads From with, so the sender shown is the one the DMARC verdict is about: the first
  // `x@y` anywhere in the header took `"ceo@corp.example" <evil@attacker.example>` as mail from the CEO.
  const addr = (h: string | undefined) => (h ? addressparser(h, { flatten: true }).flatMap((a) => (a.address.includes("@") ? [a.address] : [])) : []);
  const from = addr(headers.from)[0];
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => KEPT_HEADERS.includes(k)));
  return {
    messageId: cleanId(headers["message-id"]),
    inReplyTo: idList(headers["in-reply-to"])[0] ?? null,
    references: keptReferences(idList(headers.references)),
    from: from ? { address: from, name: null } : null,
    to: addr(headers.to),
    cc: addr(headers.cc),
    replyTo: addr(headers["reply-to"]),
    subject: decodedSubject ?? headers.subject ?? null,
    date: headers.date && !Number.isNaN(Date.parse(headers.date)) ? new Date(headers.date) : null,
    text: body,
    html: null,
    headers: kept,
    autoSubmitted: !!headers["auto-submitted"] && !headers["auto-submitted"].toLowerCase().startsWith("no"),
    spamFlagged: spamFlagged(headers["x-spam-flag"], headers["x-spam-status"]),
    contentType: headers["content-type"] ?? null,
    attachments: [],
    parseError: error.slice(0, 500),
  };
}
