import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/lib/db/client";
import { storableJson } from "@/lib/db/statement";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { type DeliveryStatus, mailDeliveries, type MailDelivery } from "@/lib/db/schema/mail-send";
import { newId } from "@/lib/ids";
import { PermanentJobError, type JobContext, type JobFinish } from "@/lib/jobs/define-job-kind";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { emitMailEvent } from "@/lib/mail/events/emit-mail-event";
import { memo } from "@/lib/mail/ttl-cache";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { isLocalDomain, resolveRecipient } from "@/lib/mail/inbound/resolve-recipient";
import { outboundRaw } from "@/lib/mail/outbound/outbound-raw";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { relayTransport, sendRaw } from "@/lib/mail/outbound/relay-transport";
import { mayHaveBeenAccepted } from "@/lib/mail/outbound/relay-errors";
import { settleMessage } from "@/lib/mail/outbound/settle-message";
import { type MessageRow, recordDeliveryResult, startDelivery } from "@/lib/mail/outbound/statements";

/** Relay, local domains and the sender mailbox are re-read at most this often by deliveries. */
const SETTINGS_TTL_MS = 5000;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

interface RouteResult {
  status: Extract<DeliveryStatus, "sent" | "failed" | "unknown">;
  response: string;
  accepted: string[];
  rejected: Array<{ recipient: string; response: string }>;
}

/**
 * The mail.deliver job for one delivery (design D7): the message's signed bytes (composed once, outbound-raw.ts)
 * go to the recipient's mailbox on this instance, or in one relay SMTP transaction to every outside recipient. A
 * 5xx answer fails at once (retrying cannot help); a connection lost after the body went out leaves the delivery
 * `unknown` for the owner, since a retry could deliver twice; anything else is retried by the job runner. Re-running
 * after a crash is safe: a delivery no longer queued or sending is left alone, and a relay delivery a crashed
 * attempt left sending becomes `unknown` too. The result, the message's state and
 * the ledger entry commit with the job's completion.
 */
export async function deliverMessage(payload: { delivery_id?: string; message_id?: string }, ctx: JobContext): Promise<JobFinish | void> {
  const db = await getDb();
  const projectId = ctx.job.projectId ?? "";
  const deliveryId = payload.delivery_id ?? (await legacyDelivery(db, projectId, payload.message_id ?? ""));
  if (!deliveryId) return;
  const [started] = await startDelivery(db, projectId, deliveryId);
  if (!started) return;
  // Read, not written: the message row changes once per outcome, in settleMessage.
  const { deliveryRoute: route, deliveryRecipients: recipients, deliveryWas, senderDeleted, ...m } = started;
  const d: Delivery = { id: deliveryId, projectId, messageId: m.id, route, recipients };
  // Nothing goes out from a deleted address (free for a new mailbox of any project at once), even a send an approval
  // released while delete_inbox was withdrawing it (found by helper-103: the approval's commit came first).
  if (senderDeleted) return (tx) => finishDelivery(tx, d, m, SENDER_DELETED, m.sizeBytes);
  // An earlier attempt took it to the relay and its instance died before recording what the relay said: the
  // message may have gone, so it is the owner's to resolve, as a connection lost after the body is. Sending it
  // again blindly could deliver it twice. (A local delivery is safe to repeat: one Message-ID is stored once.)
  if (deliveryWas === "sending" && route === "relay") return (tx) => finishDelivery(tx, d, m, INTERRUPTED, m.sizeBytes);
  try {
    const mailbox = await memo("mailbox", m.mailboxId, SETTINGS_TTL_MS, async () => {
      const [row] = await db
        .select()
        .from(mailboxes)
        .where(and(eq(mailboxes.projectId, m.projectId), eq(mailboxes.id, m.mailboxId)));
      return row;
    });
    const raw = await outboundRaw(db, m, mailbox, { local: d.route === "local" });
    const result =
      d.route === "local"
        ? await deliverLocally(raw, mailbox.address, d.recipients)
        : await deliverByRelay(raw, projectId, mailbox.address, d.recipients, ctx.signal);
    return (tx) => finishDelivery(tx, d, m, result, raw.byteLength);
  } catch (err) {
    // Back to queued for the retry (a PermanentJobError's onFailure then fails it); the message follows.
    await db.transaction(async (tx) => {
      await tx
        .update(mailDeliveries)
        .set({ status: "queued", lastError: errorText(err), updatedAt: sql`now()` })
        .where(and(eq(mailDeliveries.projectId, projectId), eq(mailDeliveries.id, d.id), eq(mailDeliveries.status, "sending")));
      await settleMessage(tx, { projectId, messageId: d.messageId, lastError: errorText(err) });
    });
    throw err;
  }
}

/** The outcome of a relay attempt whose instance stopped before it recorded one. */
const INTERRUPTED: RouteResult = {
  status: "unknown",
  response: "An earlier attempt stopped (the instance crashed or was killed) before the relay's answer was recorded; the relay may have taken the message.",
  accepted: [],
  rejected: [],
};

const SENDER_DELETED: RouteResult = {
  status: "failed",
  response: "Not sent: the sending mailbox was deleted before the message went out.",
  accepted: [],
  rejected: [],
};

/** What the delivery path knows of a delivery once it has taken it. */
type Delivery = Pick<MailDelivery, "id" | "projectId" | "messageId" | "route" | "recipients">;

async function finishDelivery(tx: Executor, d: Delivery, m: MessageRow, r: RouteResult, size: number): Promise<void> {
  const response = r.response.slice(0, 1000);
  await recordDeliveryResult(
    tx,
    d.projectId,
    d.id,
    r.status,
    response,
    storableJson(r.accepted),
    storableJson(r.rejected),
    r.status === "sent" ? null : response,
    r.status === "sent",
  );
  await settleMessage(tx, { projectId: d.projectId, messageId: d.messageId, response: r.response });
  if (d.route === "local" && r.status === "sent") {
    // Only a local delivery is known to have arrived; a relay's 250 says nothing about the last hop.
    await emitMailEvent(tx, {
      projectId: d.projectId,
      mailboxId: m.mailboxId,
      type: "message.delivered",
      messageId: d.messageId,
      threadId: m.threadId,
      summary: { from: m.fromAddress, to: d.recipients, subject: m.subject, preview: m.preview, labels: m.labels },
    });
  }
  await recordSystemAct(tx, {
    projectId: d.projectId,
    op: "email.deliver",
    subject: d.messageId,
    input: { delivery_id: d.id, to: d.recipients, size_bytes: size },
    output: { status: r.status, response: r.response, rejected: r.rejected },
  });
}

/** The job's final failure (attempts used up, or a PermanentJobError): the delivery fails, and the message follows. */
export async function failDelivery(tx: Executor, o: { projectId: string; deliveryId: string; error: string; interrupted?: boolean }): Promise<void> {
  // A relay delivery its last attempt left `sending` may have gone (found by helper-104: marked failed, the owner
  // would resend it, and it went twice): unknown, for the owner to resolve, as the handler does on an earlier attempt.
  const cutOff = o.interrupted ? sql`${mailDeliveries.status} = 'sending' and ${mailDeliveries.route} = 'relay'` : sql`false`;
  const why = (text: string) => sql`case when ${cutOff} then ${INTERRUPTED.response} else ${text.slice(0, 1000)} end`;
  const [d] = await tx
    .update(mailDeliveries)
    .set({ status: sql`case when ${cutOff} then 'unknown' else 'failed' end`, lastError: why(o.error), response: why(o.error), updatedAt: sql`now()` })
    .where(and(eq(mailDeliveries.projectId, o.projectId), eq(mailDeliveries.id, o.deliveryId), inArray(mailDeliveries.status, ["queued", "sending"])))
    .returning();
  if (d) await settleMessage(tx, { projectId: o.projectId, messageId: d.messageId });
}

/**
 * A `{message_id}` job queued before deliveries existed: its message had one recipient. It gets its delivery now,
 * routed as it would be today, and is delivered like any other.
 */
export async function legacyDelivery(db: Executor, projectId: string, messageId: string): Promise<string | null> {
  const [existing] = await db
    .select({ id: mailDeliveries.id })
    .from(mailDeliveries)
    .where(and(eq(mailDeliveries.projectId, projectId), eq(mailDeliveries.messageId, messageId)));
  if (existing) return existing.id;
  const [m] = await db
    .select({ to: mailMessages.to, status: mailMessages.status })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, messageId)));
  if (!m || !["queued", "sending"].includes(m.status) || m.to.length === 0) return null;
  const rcpt = m.to[0].toLowerCase();
  const route = (await isLocalDomain(db, rcpt.slice(rcpt.lastIndexOf("@") + 1))) ? "local" : "relay";
  const id = newId("dlv");
  await db.insert(mailDeliveries).values({ id, projectId, messageId, route, recipients: [rcpt] });
  return id;
}

async function deliverLocally(raw: Buffer, from: string, recipients: string[]): Promise<RouteResult> {
  const db = await getDb();
  const rcpt = recipients[0];
  const r = await resolveRecipient(db, rcpt);
  if (r.kind !== "mailbox") throw new PermanentJobError(`550 5.1.1 <${rcpt}>: no such mailbox on this instance`);
  const stored = await receiveMessage(raw, { mailFrom: from, recipients: [r.mailbox], remote: "local" });
  if (stored.length === 0) throw new PermanentJobError(`550 5.1.1 <${rcpt}>: the mailbox was deleted before the message was stored`);
  return { status: "sent", response: "250 delivered locally", accepted: [rcpt], rejected: [] };
}

async function deliverByRelay(raw: Buffer, projectId: string, from: string, recipients: string[], signal: AbortSignal): Promise<RouteResult> {
  const relay = await memo("relay", projectId, SETTINGS_TTL_MS, async () => relayFor(await getDb(), projectId));
  if (!relay) throw new Error("No SMTP relay is configured (Mail settings screen or SMTP_RELAY_URL).");
  const transport = relayTransport(relay, relay.origin === "env" ? "env" : projectId);
  const sent = await sendRaw(transport, { from, to: recipients, raw, signal });
  if ("error" in sent) {
    const err = sent.error;
    const code = (err as { responseCode?: number }).responseCode;
    const response = (err as { response?: string }).response;
    if (code && code >= 500 && code < 600) throw new PermanentJobError(response ?? `${code} ${errorText(err)}`);
    if (mayHaveBeenAccepted(err, { bodySent: sent.bodySent })) return { status: "unknown", response: errorText(err), accepted: [], rejected: [] };
    throw err;
  }
  const info = sent.info;
  const response = String(info.response ?? "250 OK");
  const refused = ((info.rejected ?? []) as Array<string | { address: string }>).map((a) => (typeof a === "string" ? a : a.address).toLowerCase());
  const rejected = refused.map((recipient) => ({ recipient, response: rcptError(info, recipient) ?? response }));
  const accepted = recipients.filter((r) => !refused.includes(r));
  if (accepted.length === 0)
    throw new PermanentJobError(`550 every recipient was refused by the relay: ${rejected.map((x) => x.response).join("; ")}`.slice(0, 1000));
  return { status: "sent", response, accepted, rejected };
}

function rcptError(info: unknown, recipient: string): string | null {
  const errors = (info as { rejectedErrors?: Array<{ recipient?: string; response?: string }> }).rejectedErrors;
  return errors?.find((e) => e.recipient?.toLowerCase() === recipient)?.response ?? null;
}
