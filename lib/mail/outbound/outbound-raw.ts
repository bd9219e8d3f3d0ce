import { and, eq } from "drizzle-orm";
import { discardBlob, discardOnRollback } from "@/lib/blob/unused-blob";
import type { Executor } from "@/lib/db/client";
import { mailMessages, type Mailbox } from "@/lib/db/schema/mail";
import { signingKey } from "@/lib/mail/domains/domain-key";
import { putMailBlob, readMailBlob } from "@/lib/mail/mail-blob";
import { composeMessage } from "@/lib/mail/outbound/compose-message";
import { openBody } from "@/lib/mail/outbound/sealed-body";
import { messageAttachments, type MessageRow, recordRawBlob } from "@/lib/mail/outbound/statements";

/**
 * The signed bytes of an outbound message, composed once and kept in the blob store (`raw_blob_key`): every
 * delivery of it, a resend and the raw download send exactly these bytes. Two deliveries composing at once both
 * try to record theirs; the first wins and the other uses it (MIME boundaries and the signature differ per compose).
 * A message with a sealed body (Brynth's own mail holding a private link) is composed from it for each delivery to
 * a relay and never kept: the raw download would hand the link to agents. To a mailbox here it goes as stored.
 */
export async function outboundRaw(
  db: Executor,
  m: MessageRow,
  mailbox: Pick<Mailbox, "address" | "domainId">,
  opts: { local?: boolean } = {},
): Promise<Buffer> {
  if (m.rawBlobKey) return readMailBlob(m.rawBlobKey);
  const rows = await messageAttachments(db, m.projectId, m.id);
  const attachments = await Promise.all(rows.map(async (a) => ({ ...a, content: await readMailBlob(a.blobKey) })));
  // Delivered to a mailbox of this instance, which agents read, the links stay withheld: an agent made an inbox,
  // added an approval channel on it, verified it and approved its own request through it (found by helper-106).
  const sealed = opts.local ? null : m.sealedBodyEnc;
  const raw = await composeMessage({
    message: sealed ? { ...m, ...openBody(m.id, sealed) } : m,
    // The name the message was stored with when it was sent, not the mailbox's now: a delivery reads the mailbox
    // through a 5-second memo, so a send right after update_inbox went out under the old name, unlike its record.
    from: { address: mailbox.address, name: m.fromName },
    attachments,
    key: await signingKey(db, mailbox.domainId),
  });
  if (m.sealedBodyEnc) return raw;
  const key = await putMailBlob(m.projectId, raw, "message/rfc822");
  discardOnRollback(db, key);
  const [won] = await recordRawBlob(db, m.projectId, m.id, key, raw.byteLength);
  if (won) return raw;
  const [row] = await db
    .select({ rawBlobKey: mailMessages.rawBlobKey })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, m.projectId), eq(mailMessages.id, m.id)));
  if (!row?.rawBlobKey || row.rawBlobKey === key) return raw;
  // Another delivery of the message recorded its copy first: every recipient gets those bytes, and this copy, which
  // nothing names, goes (it stayed for ever: found by helper-108).
  await discardBlob(key);
  return readMailBlob(row.rawBlobKey);
}
