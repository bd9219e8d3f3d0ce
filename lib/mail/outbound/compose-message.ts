import { buffer } from "node:stream/consumers";
import DKIM from "nodemailer/lib/dkim";
import MailComposer from "nodemailer/lib/mail-composer";
import type { MailAttachment, MailMessage } from "@/lib/db/schema/mail";
import type { SigningKey } from "@/lib/mail/domains/domain-key";
import { SAFE_ID } from "@/lib/mail/outbound/address-rules";

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
  attachments: Array<Pick<MailAttachment, "name" | "contentType"> & { content: Buffer }>;
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
    subject: m.subject ?? "",
    text: m.text ?? "",
    html: m.html ?? undefined,
    messageId: `<${m.rfcMessageId}>`,
    date: m.createdAt,
    inReplyTo: inReplyTo ? `<${inReplyTo}>` : undefined,
    references: references.length > 0 ? references.map((r) => `<${r}>`) : undefined,
    headers: { ...m.customHeaders, ...m.headers },
    attachments: opts.attachments.map((a) => ({ filename: a.name, content: a.content, contentType: a.contentType })),
  });
  const raw = await composer.compile().build();
  const signer = new DKIM({ domainName: opts.key.domain, keySelector: opts.key.selector, privateKey: opts.key.privateKey });
  return buffer(signer.sign(raw));
}
