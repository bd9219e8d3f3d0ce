import { getDb, getHandle } from "@/lib/db/client";
import type { Mailbox } from "@/lib/db/schema/mail";
import { contentTypeProblem, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { sealSoon } from "@/lib/ledger/seal-entries";
import { putMailBlob } from "@/lib/mail/mail-blob";
import { attachmentNames } from "@/lib/mail/inbound/attachment-names";
import { authenticateMessage, localVerdicts } from "@/lib/mail/inbound/authenticate-message";
import { commitInbound } from "@/lib/mail/inbound/commit-batcher";
import { defaultMailResolver, type MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { parseDsn } from "@/lib/mail/inbound/parse-dsn";
import { parseMessage } from "@/lib/mail/inbound/parse-message";
import { prepareInbound, writeInbound, type StoredBlob } from "@/lib/mail/inbound/store-inbound";

export interface InboundEnvelope {
  mailFrom: string | null;
  /** Mailboxes accepted at RCPT (resolveRecipient). */
  recipients: Mailbox[];
  /** The SMTP client, or `local` for delivery between this instance's own mailboxes. */
  remote: { ip: string; helo: string | null } | "local";
}

/**
 * The inbound pipeline after DATA: parse (as far as possible), authenticate, store raw bytes and attachments in the
 * blob store, then one transaction per project for its mailboxes (shared with messages arriving at the same time). Throws on a storage fault, so the SMTP client
 * gets a temporary error and retries; a redelivered Message-ID is then skipped.
 */
export async function receiveMessage(raw: Buffer, envelope: InboundEnvelope, opts: { resolver?: MailDnsResolver } = {}) {
  const parsed = await parseMessage(raw);
  const auth =
    envelope.remote === "local"
      ? localVerdicts()
      : await authenticateMessage(raw, { ...envelope.remote, sender: envelope.mailFrom, resolver: opts.resolver ?? defaultMailResolver() });
  const dsn = parseDsn(raw, parsed);
  const names = attachmentNames(parsed.attachments.map((a) => a.filename));
  const byProject = new Map<string, Mailbox[]>();
  for (const m of envelope.recipients) {
    const list = byProject.get(m.projectId) ?? [];
    if (!list.some((x) => x.id === m.id)) list.push(m);
    byProject.set(m.projectId, list);
  }
  const db = await getDb();
  const pipelined = (await getHandle()).kind === "postgres";
  const stored: Array<{ messageId: string; eventId: string | null; duplicate: boolean }> = [];
  for (const [projectId, mailboxes] of byProject) {
    // Blob writes and the reads of each copy overlap; the writes then share a transaction with concurrent arrivals.
    const blobs = (async () => {
      const rawKey = await putMailBlob(projectId, raw, "message/rfc822");
      const attachments: StoredBlob[] = [];
      for (const [i, a] of parsed.attachments.entries()) {
        const contentType = contentTypeProblem(a.contentType) ? DEFAULT_CONTENT_TYPE : a.contentType;
        const blobKey = await putMailBlob(projectId, a.content, contentType);
        attachments.push({ name: names[i], contentType, sizeBytes: a.content.byteLength, blobKey, contentId: a.contentId, inline: a.inline });
      }
      return { rawKey, attachments };
    })();
    const copy = (mailbox: Mailbox) => ({ mailbox, parsed, auth, rawKey: "", size: raw.byteLength, attachments: [] as StoredBlob[], dsn });
    const [{ rawKey, attachments }, prepared] = await Promise.all([blobs, Promise.all(mailboxes.map((m) => prepareInbound(db, copy(m))))]);
    for (const p of prepared) Object.assign(p.copy, { rawKey, attachments });
    stored.push(
      ...(await commitInbound(async (tx) => {
        const out = [];
        for (const p of prepared) out.push(await writeInbound(tx, p, pipelined));
        return out;
      })),
    );
    sealSoon(projectId);
  }
  return stored;
}
