import { dkimSign } from "mailauth";
import MailComposer from "nodemailer/lib/mail-composer";
import type { MailAttachment, MailMessage } from "@/lib/db/schema/mail";
import type { SigningKey } from "@/lib/mail/domains/domain-key";

/**
 * The RFC 5322 bytes of an outbound message, DKIM-signed (relaxed/relaxed, rsa-sha256) with its domain's key.
 * Headers come only from stored, validated fields: nothing an agent wrote can add a header line.
 */
export async function composeMessage(opts: {
  message: Pick<MailMessage, "to" | "cc" | "subject" | "text" | "html" | "rfcMessageId" | "createdAt" | "inReplyTo" | "references" | "headers">;
  from: { address: string; name: string | null };
  attachments: Array<Pick<MailAttachment, "name" | "contentType"> & { content: Buffer }>;
  key: SigningKey;
}): Promise<Buffer> {
  const m = opts.message;
  const composer = new MailComposer({
    from: opts.from.name ? { name: opts.from.name, address: opts.from.address } : opts.from.address,
    to: m.to,
    cc: m.cc.length > 0 ? m.cc : undefined,
    subject: m.subject ?? "",
    text: m.text ?? "",
    html: m.html ?? undefined,
    messageId: `<${m.rfcMessageId}>`,
    date: m.createdAt,
    inReplyTo: m.inReplyTo ? `<${m.inReplyTo}>` : undefined,
    references: m.references.length > 0 ? m.references.map((r) => `<${r}>`) : undefined,
    // Stored extra headers are Brynth's own (Auto-Submitted for system mail), never an agent's.
    headers: m.headers,
    attachments: opts.attachments.map((a) => ({ filename: a.name, content: a.content, contentType: a.contentType })),
  });
  const raw = await composer.compile().build();
  const signature = { signingDomain: opts.key.domain, selector: opts.key.selector, privateKey: opts.key.privateKey };
  const signed = await dkimSign(raw, { ...signature, canonicalization: "relaxed/relaxed", algorithm: "rsa-sha256", signatureData: [signature] });
  if (signed.errors?.length) throw new Error(`DKIM signing failed: ${JSON.stringify(signed.errors).slice(0, 300)}`);
  return Buffer.concat([Buffer.from(signed.signatures), raw]);
}
