import { buffer } from "node:stream/consumers";
import DKIM from "nodemailer/lib/dkim";
import MailComposer from "nodemailer/lib/mail-composer";
import { encodeWord } from "nodemailer/lib/mime-funcs";
import type { MailAttachment, MailMessage } from "@/lib/db/schema/mail";
import type { SigningKey } from "@/lib/mail/domains/domain-key";
import { SAFE_ID } from "@/lib/mail/outbound/address-rules";

/** A file to attach; only the stored rows (a forward's, a draft's) carry a Content-ID or an inline disposition. */
type ComposedFile = Pick<MailAttachment, "name" | "contentType"> & Partial<Pick<MailAttachment, "contentId" | "inline">> & { content: Buffer };

/**
 * Every line break as CRLF. nodemailer signs a bare CR (or LF) as it is, then its SMTP stream writes it as CRLF: the
 * relay got a body other than the one signed and DKIM failed, for an agent's text or an outsider's quoted by a forward
 * (found by helper-118).
 */
const crlf = (body: string) => body.replace(/\r\n?|\n/g, "\r\n");

/**
 * A subject nodemailer can fold. It folds at spaces only, so one word of 998 characters (the longest subject a send
 * takes) went out as a 999-character line, past RFC 5322's 998, which relays may rewrap and so break the signature
 * (found by helper-118). Such a subject goes as encoded-words (RFC 2047), short ones with spaces between.
 */
const foldableSubject = (subject: string) => (/\S{900}/.test(subject) ? encodeWord(subject, "Q", 52) : subject);

/**
 * A stored file as a MIME part. A message/* part (an attached .eml) went out as nodemailer writes it, inline and 8bit
 * as it came, long lines, NULs and bare CRs included: recipients saw it inside the text, not as a file, and relays
 * may refuse or rewrap it. It goes base64 as an attachment, as clients accept it (found by helper-118). An inline
 * part keeps its Content-ID: a forward sent the original's images without it, and its HTML's cid: links broke
 * (found by helper-118).
 */
function attachmentPart(a: ComposedFile) {
  const part = { filename: a.name, content: a.content, contentType: a.contentType };
  if (/^message\//i.test(a.contentType)) return { ...part, contentDisposition: "attachment" as const, contentTransferEncoding: "base64" };
  if (!a.inline) return part;
  return { ...part, contentDisposition: "inline" as const, cid: a.contentId ?? undefined };
}

/**
 * The RFC 5322 bytes of an outbound message, DKIM-signed (relaxed/relaxed, rsa-sha256) with its domain's key.
 * nodemailer's signer, because it takes the parsed key: mailauth's dkimSign parses the PEM again for every message
 * and re-reads the message with its own parser: 1.1 ms a 2 KB message against 0.35, measured side by side, both
 * signatures passing mailauth's dkimVerify.
 * Headers come only from stored, validated fields: bcc goes into the envelope only, never a header; the agent's
 * allow-listed headers come before Brynth's own, which win a clash; References keeps only well-formed ids.
 */
export async function composeMessage(opts: {
  message: Pick<
    MailMessage,
    "to" | "cc" | "replyToAddresses" | "subject" | "text" | "html" | "rfcMessageId" | "createdAt" | "inReplyTo" | "references" | "headers" | "customHeaders"
  >;
  from: { address: string; name: string | null };
  attachments: ComposedFile[];
  key: SigningKey;
}): Promise<Buffer> {
  const m = opts.message;
  const references = m.references.filter((r) => SAFE_ID.test(r));
  const inReplyTo = m.inReplyTo && SAFE_ID.test(m.inReplyTo) ? m.inReplyTo : null;
  const composer = new MailComposer({
    from: opts.from.name ? { name: opts.from.name, address: opts.from.address } : opts.from.address,
    to: m.to.length > 0 ? m.to : undefined,
    cc: m.cc.length > 0 ? m.cc : undefined,
    replyTo: m.replyToAddresses.length > 0 ? m.replyToAddresses : undefined,
    subject: foldableSubject(m.subject ?? ""),
    text: crlf(m.text ?? ""),
    html: typeof m.html === "string" ? crlf(m.html) : undefined,
    messageId: `<${m.rfcMessageId}>`,
    date: m.createdAt,
    inReplyTo: inReplyTo ? `<${inReplyTo}>` : undefined,
    references: references.length > 0 ? references.map((r) => `<${r}>`) : undefined,
    headers: { ...m.customHeaders, ...m.headers },
    attachments: opts.attachments.map(attachmentPart),
  });
  const raw = await composer.compile().build();
  const signer = new DKIM({ domainName: opts.key.domain, keySelector: opts.key.selector, privateKey: opts.key.privateKey });
  return buffer(signer.sign(raw));
}
