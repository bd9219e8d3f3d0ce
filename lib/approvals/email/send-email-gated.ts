import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailBatches, mailMessages } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { sendEmail, type SendEmailInput } from "@/lib/mail/outbound/send-email";
import { describeSend } from "@/lib/mail/send/describe-send";
import { getPolicy } from "@/lib/policy/get-policy";
import { evaluatePolicy } from "@/lib/policy/evaluate-policy";
import { createRequest } from "@/lib/approvals/create-request";
import { waitForRequest } from "@/lib/approvals/wait-for-request";
import { emailAction } from "@/lib/approvals/email/email-action";

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

function describeEmail(input: SendEmailInput) {
  const lines = [
    `To: ${input.to.join(", ")}`,
    `Subject: ${input.subject}`,
    ...(input.attachments.length ? [`Attachments: ${input.attachments.join(", ")}`] : []),
  ];
  return describeSend({ subject: input.subject, recipients: input.to, lines, body: input.text, html: input.html });
}

/**
 * email_send under the policy (tool `email_send`, risk `medium`, the recipients' domains). `deny` → POLICY_DENIED;
 * `allow` → queued at once; otherwise the batch is stored held (`pending`) together with its request — exactly
 * those messages are what the person sees — and released or cancelled by the decision (settle-email-batch.ts).
 */
export async function sendEmailGated(db: Executor, opts: { actor: Actor; waitSeconds: number; signal?: AbortSignal } & SendEmailInput) {
  const { actor, waitSeconds, signal, ...input } = opts;
  const current = await getPolicy(db, actor.projectId);
  const domains = [...new Set(input.to.map(domainOf))];
  const verdict = evaluatePolicy(current.policy, { action: "email_send", tool: "email_send", risk: "medium", amount: null, domains });
  if (verdict.effect === "deny") {
    throw new AppError("POLICY_DENIED", `The project policy refuses this email (rule ${verdict.rule?.id ?? "default"}).`, {
      fix: "Do not retry this email; ask the owner to change the policy if it should be allowed.",
      details: { rule: verdict.rule?.id ?? null },
    });
  }
  if (verdict.effect === "allow") return db.transaction((tx) => sendEmail(tx, { actor, ...input }));
  const held = await db.transaction(async (tx) => {
    const out = await sendEmail(tx, { actor, ...input, hold: true });
    const request = await createRequest(tx, {
      actor,
      kind: "tool",
      action: "email_send",
      ...describeEmail(input),
      risk: "medium",
      expiresInMs: 24 * 3600_000,
      payload: await emailAction(tx, out.batch_id),
      verdict: { ...verdict, version: current.version },
    });
    await tx.update(mailBatches).set({ requestId: request.id }).where(eq(mailBatches.id, out.batch_id));
    return { batchId: out.batch_id, request };
  });
  const row =
    held.request.status === "pending" && waitSeconds > 0
      ? await waitForRequest(db, { projectId: actor.projectId, requestId: held.request.id, timeoutMs: waitSeconds * 1000, signal, waiter: actor })
      : held.request;
  return batchView(db, actor.projectId, held.batchId, row.id);
}

async function batchView(db: Executor, projectId: string, batchId: string, requestId: string) {
  const [batch] = await db
    .select()
    .from(mailBatches)
    .where(and(eq(mailBatches.id, batchId), eq(mailBatches.projectId, projectId)));
  const messages = await db
    .select({ id: mailMessages.id, to: mailMessages.to, status: mailMessages.status })
    .from(mailMessages)
    .where(eq(mailMessages.batchId, batchId));
  return {
    status: batch.status,
    batch_id: batchId,
    request_id: requestId,
    messages: messages.map((m) => ({ message_id: m.id, to: m.to[0], status: m.status })),
  };
}
