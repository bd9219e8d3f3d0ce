import { getDb } from "@/lib/db/client";
import { discardBlob } from "@/lib/blob/unused-blob";
import { unreferencedBlobs } from "@/lib/mail/deletion/statements";
import type { Mailbox } from "@/lib/db/schema/mail";
import { contentTypeProblem, DEFAULT_CONTENT_TYPE } from "@/lib/disk/file-input";
import { extractReply } from "@/lib/mail/extract/extract-reply";
import { putMailBlob } from "@/lib/mail/mail-blob";
import { attachmentNames } from "@/lib/mail/inbound/attachment-names";
import { authenticateMessage, localVerdicts } from "@/lib/mail/inbound/authenticate-message";
import { commitInbound } from "@/lib/mail/inbound/commit-batcher";
import { contentMessageId } from "@/lib/mail/inbound/content-message-id";
import { defaultMailResolver, type MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { parseComplaint } from "@/lib/mail/inbound/parse-complaint";
import { parseDsn } from "@/lib/mail/inbound/parse-dsn";
import { parseMessage, type ParsedMessage } from "@/lib/mail/inbound/parse-message";
import { prepareInbound, writeInbound, type StoredBlob } from "@/lib/mail/inbound/store-inbound";
import { inMessageTurn } from "@/lib/mail/inbound/message-turn";
import { liveMailboxes } from "@/lib/mail/inbound/statements";
import { isTrustedRelay } from "@/lib/mail/inbound/trusted-relay";

export interface InboundEnvelope {
  mailFrom: string | null;
  /** Mailboxes accepted at RCPT (resolveRecipient). */
  recipients: Mailbox[];
  /** The SMTP client, or `local` for delivery between this instance's own mailboxes. */
  remote: { ip: string; helo: string | null } | "local";
}

/**
 * The inbound pipeline after DATA: parse (as far as possible), authenticate, store raw bytes and attachments in the
 * blob store, then one transaction per project for its mailboxes still live (shared with messages arriving at the
 * same time). Throws on a storage fault, so the SMTP client gets a temporary error and retries; a redelivered
 * Message-ID is then skipped. Once `signal` aborts (the client was told to retry) no transaction of this message
 * starts or commits; one already committing may still land.
 */
export async function receiveMessage(raw: Buffer, envelope: InboundEnvelope, opts: { resolver?: MailDnsResolver; signal?: AbortSignal } = {}) {
  const read = await parseMessage(raw);
  const parsed = { ...read, messageId: read.messageId ?? contentMessageId(raw) };
  // Authentication (CPU and DNS), the reads and the blob writes overlap: on a busy listener latency, not work,
  // bounds throughput. Blobs are written before the transaction, so a stored row never points at missing bytes
  // (a failed transaction leaves at most unreferenced blobs).
  const authenticated =
    envelope.remote === "local"
      ? Promise.resolve(localVerdicts())
      : authenticateMessage(raw, {
          ...envelope.remote,
          sender: envelope.mailFrom,
          from: parsed.from?.address ?? null,
          resolver: opts.resolver ?? defaultMailResolver(),
        });
  // A DSN comes with a null sender (RFC 3464 §2, RFC 5321 §4.5.5). One with a sender is any mail shaped like one:
  // acting on it would let anyone who saw one of our Message-IDs (a cc'd recipient) bounce our other recipients onto
  // the send block list. It is kept as ordinary mail.
  const dsn = envelope.mailFrom ? null : parseDsn(raw, parsed);
  const complaint = dsn ? null : parseComplaint(raw, parsed);
  // CPU only, like parsing: done while authentication waits on DNS, and outside the commit.
  const extracted = extractReply(parsed, { keepWhole: parsed.autoSubmitted || dsn !== null || complaint !== null });
  const trustedRelay = envelope.remote !== "local" && isTrustedRelay(envelope.remote.ip);
  const names = attachmentNames(parsed.attachments.map((a) => a.filename));
  const byProject = new Map<string, Mailbox[]>();
  for (const m of envelope.recipients) {
    const list = byProject.get(m.projectId) ?? [];
    if (!list.some((x) => x.id === m.id)) list.push(m);
    byProject.set(m.projectId, list);
  }
  const db = await getDb();
  const stored: Array<{ messageId: string; eventId: string | null; duplicate: boolean }> = [];
  for (const [projectId, mailboxes] of byProject) {
    const blobs = storeBlobs(projectId, raw, parsed.attachments, names);
    // A copy of this message being stored meanwhile commits first: this one then reads it as a duplicate.
    const written = await inMessageTurn(projectId, parsed.messageId, async () => {
      const prepared = Promise.all(mailboxes.map((mailbox) => prepareInbound(db, { mailbox, parsed })));
      // Awaited before the transaction: a slow DNS answer must not hold a transaction (and its batch) open.
      const [auth, ready, files] = await Promise.all([authenticated, prepared, blobs]);
      return commitInbound(
        async (tx) => {
          // A mailbox deleted since RCPT gets no copy: its mail is out of every list, and a new message there would
          // still reach the project's webhooks and live streams.
          const live = new Set(
            (
              await liveMailboxes(
                tx,
                projectId,
                mailboxes.map((m) => m.id),
              )
            ).map((r) => r.id),
          );
          const out = [];
          for (const [i, mailbox] of mailboxes.entries()) {
            if (!live.has(mailbox.id)) continue;
            out.push(await writeInbound(tx, { mailbox, parsed, auth, size: raw.byteLength, dsn, complaint, extracted, trustedRelay, ...files }, ready[i]));
          }
          return out;
        },
        { signal: opts.signal },
      );
    });
    // A copy already stored (the client retried after a lost 250), or no mailbox left to take it: no row names the
    // bytes written for this one (they stayed for ever: found by helper-112).
    // Only what no row names: an earlier attempt of this very call (a batch whose COMMIT went unanswered) may have
    // stored rows naming these keys.
    if (!written.some((w) => !w.duplicate)) {
      const { rawKey, attachments } = await blobs;
      const unused = await unreferencedBlobs(db, projectId, [rawKey, ...attachments.map((a) => a.blobKey)]);
      await Promise.all(unused.map((u) => discardBlob(u.blobKey)));
    }
    stored.push(...written);
  }
  return stored;
}

async function storeBlobs(projectId: string, raw: Buffer, parts: ParsedMessage["attachments"], names: string[]) {
  const [rawKey, attachments] = await Promise.all([
    putMailBlob(projectId, raw, "message/rfc822"),
    Promise.all(
      parts.map(async (a, i): Promise<StoredBlob> => {
        const contentType = contentTypeProblem(a.contentType) ? DEFAULT_CONTENT_TYPE : a.contentType;
        const blobKey = await putMailBlob(projectId, a.content, contentType);
        return { name: names[i], contentType, sizeBytes: a.content.byteLength, blobKey, contentId: a.contentId, inline: a.inline };
      }),
    ),
  ]);
  return { rawKey, attachments };
}
