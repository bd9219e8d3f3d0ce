import { and, asc, eq } from "drizzle-orm";
import { nameAddress } from "@/lib/mail/messages/name-address";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments, mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { messageNotFound, type StoredMessage } from "@/lib/mail/lookup/find-message";
import { type DerivedSendInput, derivedSubject } from "@/lib/mail/send/reply-request";
import type { SendRequest } from "@/lib/mail/send/send-request";
import { escapeHtml } from "@/lib/text/escape-html";

const FWD = /^(?:fwd?|fw)\s*:/i;

/** `Fwd: <original>`, never `Fwd: Fwd: …`. */
export const forwardSubject = (subject: string | null) => derivedSubject("Fwd:", FWD, subject);

/** The header block a forward quotes, as mail clients write it. */
function quotedHeaders(m: StoredMessage): string[] {
  const from = m.fromAddress ? nameAddress(m.fromName, m.fromAddress) : "(unknown)";
  return [
    "---------- Forwarded message ---------",
    `From: ${from}`,
    `Date: ${m.msgAt.toUTCString()}`,
    `Subject: ${m.subject ?? ""}`,
    `To: ${m.to.join(", ")}`,
    ...(m.cc.length ? [`Cc: ${m.cc.join(", ")}`] : []),
  ];
}

/** The caller's text above the quoted original. */
function forwardText(input: DerivedSendInput, m: StoredMessage): string {
  const head = input.text ? `${input.text}\n\n` : "";
  return `${head}${quotedHeaders(m).join("\n")}\n\n${m.text ?? ""}`;
}

/** An HTML forward only when someone wrote HTML (the caller or the original); the original's stays as it was. */
function forwardHtml(input: DerivedSendInput, m: StoredMessage): string | null {
  if (!input.html && !m.html) return null;
  const own = input.html ?? (input.text ? `<p>${escapeHtml(input.text).replace(/\n/g, "<br>")}</p>` : "");
  const quoted = m.html ?? `<pre>${escapeHtml(m.text ?? "")}</pre>`;
  const head = quotedHeaders(m).map(escapeHtml).join("<br>");
  return `${own}<div class="brynth-forward"><p>${head}</p><blockquote>${quoted}</blockquote></div>`;
}

/**
 * A forward of a stored message as a send (forward_message, forward drafts): a new thread, subject `Fwd: …`, the
 * caller's text above the quoted original, and the original's attachments re-attached by reference to their blobs
 * (nothing is copied). Recipients are only the caller's: a forward draft may have none until it is sent. The
 * original is held (KEY SHARE) until the caller commits: an erasure of it waits, and then finds the forward's rows
 * still pointing at those blobs, so it leaves them be; or it committed first, and the original is NOT_FOUND.
 */
export async function forwardRequest(
  db: Executor,
  o: { actor: Actor; mailbox: Mailbox; original: StoredMessage; input: DerivedSendInput },
): Promise<SendRequest> {
  const { original: m, input } = o;
  const [held] = await db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, m.projectId), eq(mailMessages.id, m.id)))
    .for("key share");
  if (!held) throw messageNotFound(m.id);
  const files = await db
    .select()
    .from(mailAttachments)
    .where(and(eq(mailAttachments.projectId, m.projectId), eq(mailAttachments.messageId, m.id)))
    .orderBy(asc(mailAttachments.createdAt), asc(mailAttachments.id));
  return {
    kind: "forward",
    to: input.to ?? [],
    cc: input.cc ?? [],
    bcc: input.bcc ?? [],
    replyTo: input.replyTo ?? [],
    subject: input.subject ?? forwardSubject(m.subject),
    text: forwardText(input, m),
    html: forwardHtml(input, m),
    labels: input.labels ?? [],
    headers: input.headers ?? {},
    attachments: input.attachments ?? [],
    kept: files.map((f) => ({
      name: f.name,
      contentType: f.contentType,
      sizeBytes: f.sizeBytes,
      blobKey: f.blobKey,
      contentId: f.contentId,
      inline: f.inline,
    })),
    thread: null,
    inReplyToMessageId: null,
    forwardOfMessageId: m.id,
    replyAll: false,
  };
}
