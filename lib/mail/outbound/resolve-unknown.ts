import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { enqueueJobs } from "@/lib/jobs/enqueue-job";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import { settleMessage } from "@/lib/mail/outbound/settle-message";

export const RESOLVE_UNKNOWN_OP = "mail.resolve_unknown";
export const resolveActions = ["mark_sent", "resend", "mark_failed"] as const;
export type ResolveAction = (typeof resolveActions)[number];

const ANSWER: Record<Exclude<ResolveAction, "resend">, { status: "sent" | "failed"; response: string }> = {
  mark_sent: { status: "sent", response: "marked sent by the owner after the relay's answer was lost" },
  mark_failed: { status: "failed", response: "marked failed by the owner after the relay's answer was lost" },
};

/**
 * The owner settles a `send_unknown` message (design §1.5 N1): the relay dropped the connection after the body went
 * out, so only a person who checked (the relay's log, the recipient) can say whether it arrived. `mark_sent` and
 * `mark_failed` set the unknown deliveries and settle the message from them (message.sent, or email.failed for an
 * email_send message, follow as for any delivery); `resend` queues those deliveries again, and they send exactly
 * the stored signed bytes (outbound-raw.ts), so the recipient can tell a duplicate by its Message-ID. A message not
 * in `send_unknown` is a CONFLICT: it was resolved already, or never needed it.
 */
export async function resolveUnknown(tx: Executor, o: { actor: Actor; messageId: string; action: ResolveAction }) {
  const projectId = o.actor.projectId;
  const [m] = await tx
    .select({ id: mailMessages.id, status: mailMessages.status, direction: mailMessages.direction })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, o.messageId)))
    .for("update");
  if (m?.direction !== "outbound") {
    throw new AppError("NOT_FOUND", `Message ${o.messageId} was not found.`, { fix: "Pick a message from the Outbound tab (send status send_unknown)." });
  }
  if (m.status !== "unknown") {
    throw new AppError("CONFLICT", `Message ${o.messageId} is not waiting for a decision (its state is ${m.status}).`, {
      fix: "Only messages in send_unknown can be marked sent, resent or marked failed; it may have been resolved already.",
    });
  }
  const unknown = and(eq(mailDeliveries.projectId, projectId), eq(mailDeliveries.messageId, m.id), eq(mailDeliveries.status, "unknown"));
  if (o.action === "resend") {
    const again = await tx
      .update(mailDeliveries)
      .set({ status: "queued", updatedAt: sql`now()` })
      .where(unknown)
      .returning({ id: mailDeliveries.id, attempts: mailDeliveries.attempts });
    // Each delivery's first job is done and keeps its dedupe key (the delivery id): a resend needs a key of its own.
    await enqueueJobs(
      tx,
      deliverMessageJob,
      again.map((d) => ({ payload: { delivery_id: d.id }, projectId, dedupeKey: `${d.id}:resend:${d.attempts}` })),
    );
  } else {
    const a = ANSWER[o.action];
    await tx
      .update(mailDeliveries)
      .set({
        status: a.status,
        response: a.response,
        lastError: a.status === "failed" ? a.response : null,
        sentAt: a.status === "sent" ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(unknown);
  }
  await settleMessage(tx, { projectId, messageId: m.id });
  const [after] = await tx
    .select({ status: mailMessages.status, sendStatus: mailMessages.sendStatus, sendReason: mailMessages.sendReason })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, m.id)));
  return { messageId: m.id, action: o.action, ...after };
}
