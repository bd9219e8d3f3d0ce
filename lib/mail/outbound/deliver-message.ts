import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailAttachments, mailboxes, mailMessages, messageColumns } from "@/lib/db/schema/mail";
import { PermanentJobError, type JobContext, type JobFinish } from "@/lib/jobs/define-job-kind";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { signingKey } from "@/lib/mail/domains/domain-key";
import { readMailBlob } from "@/lib/mail/mail-blob";
import { memo } from "@/lib/mail/ttl-cache";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { isLocalDomain, resolveRecipient } from "@/lib/mail/inbound/resolve-recipient";
import { composeMessage } from "@/lib/mail/outbound/compose-message";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { relayTransport } from "@/lib/mail/outbound/relay-transport";

/** Relay, local domains and the sender mailbox are re-read at most this often by deliveries. */
const SETTINGS_TTL_MS = 5000;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * The mail.deliver job: compose and sign, then hand the message to its recipient's mailbox on this instance or to
 * the relay. A 5xx answer fails at once (retrying cannot help); anything else is retried by the job runner.
 * Re-running after a crash is safe: a message that is no longer queued/sending is left alone. `sent` and its ledger
 * entry commit with the job's completion.
 */
export async function deliverMessage(messageId: string, ctx: JobContext): Promise<JobFinish | void> {
  const db = await getDb();
  const [m] = await db
    .update(mailMessages)
    .set({ status: "sending", attempts: sql`${mailMessages.attempts} + 1`, updatedAt: sql`now()` })
    .where(and(eq(mailMessages.projectId, ctx.job.projectId ?? ""), eq(mailMessages.id, messageId), inArray(mailMessages.status, ["queued", "sending"])))
    .returning(messageColumns);
  if (!m) return;
  try {
    const [mailbox, rows] = await Promise.all([
      memo(
        "mailbox",
        m.mailboxId,
        SETTINGS_TTL_MS,
        async () =>
          (
            await db
              .select()
              .from(mailboxes)
              .where(and(eq(mailboxes.projectId, m.projectId), eq(mailboxes.id, m.mailboxId)))
          )[0],
      ),
      db
        .select()
        .from(mailAttachments)
        .where(and(eq(mailAttachments.projectId, m.projectId), eq(mailAttachments.messageId, m.id))),
    ]);
    const attachments = await Promise.all(rows.map(async (a) => ({ ...a, content: await readMailBlob(a.blobKey) })));
    const raw = await composeMessage({
      message: m,
      from: { address: mailbox.address, name: mailbox.displayName },
      attachments,
      key: await signingKey(db, mailbox.domainId),
    });
    const rcpt = m.to[0];
    const domain = rcpt.slice(rcpt.lastIndexOf("@") + 1).toLowerCase();
    const response = (await memo("local-domain", domain, SETTINGS_TTL_MS, () => isLocalDomain(db, domain)))
      ? await deliverLocally(raw, mailbox.address, rcpt)
      : await deliverByRelay(raw, m.projectId, mailbox.address, rcpt);
    // Committed together with the job's `done`.
    return async (tx) => {
      await tx
        .update(mailMessages)
        .set({
          status: "sent",
          sendStatus: "sent",
          sendReason: null,
          sentAt: sql`now()`,
          deliveryResponse: response.slice(0, 1000),
          sizeBytes: raw.byteLength,
          lastError: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(mailMessages.projectId, m.projectId), eq(mailMessages.id, m.id)));
      await recordSystemAct(tx, {
        projectId: m.projectId,
        op: "email.deliver",
        subject: m.id,
        input: { to: rcpt, size_bytes: raw.byteLength },
        output: { response },
      });
    };
  } catch (err) {
    await db
      .update(mailMessages)
      .set({ status: "queued", lastError: errorText(err), updatedAt: sql`now()` })
      .where(and(eq(mailMessages.projectId, m.projectId), eq(mailMessages.id, m.id), eq(mailMessages.status, "sending")));
    throw err;
  }
}

async function deliverLocally(raw: Buffer, from: string, rcpt: string): Promise<string> {
  const db = await getDb();
  const r = await resolveRecipient(db, rcpt);
  if (r.kind !== "mailbox") throw new PermanentJobError(`550 5.1.1 <${rcpt}>: no such mailbox on this instance`);
  await receiveMessage(raw, { mailFrom: from, recipients: [r.mailbox], remote: "local" });
  return "250 delivered locally";
}

async function deliverByRelay(raw: Buffer, projectId: string, from: string, rcpt: string): Promise<string> {
  const relay = await memo("relay", projectId, SETTINGS_TTL_MS, async () => relayFor(await getDb(), projectId));
  if (!relay) throw new Error("No SMTP relay is configured (Mail settings screen or SMTP_RELAY_URL).");
  const transport = relayTransport(relay, relay.origin === "env" ? "env" : projectId);
  try {
    const info = await transport.sendMail({ envelope: { from, to: [rcpt] }, raw });
    if (info.rejected?.length) throw new PermanentJobError(`550 <${rcpt}> rejected by the relay: ${info.response ?? ""}`.trim());
    return String(info.response ?? "250 OK");
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    const response = (err as { response?: string }).response;
    if (code && code >= 500 && code < 600) throw new PermanentJobError(response ?? `${code} ${errorText(err)}`);
    throw err;
  }
}
