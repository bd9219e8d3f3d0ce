import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailBatches } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { newId } from "@/lib/ids";
import { defaultMailbox } from "@/lib/mail/project-address";
import { checkRoute } from "@/lib/mail/outbound/check-route";
import { queueMessages } from "@/lib/mail/outbound/queue-message";
import { reserveQuota } from "@/lib/mail/outbound/reserve-quota";
import { resolveAttachments } from "@/lib/mail/outbound/resolve-attachments";
import { storeOutboundFiles } from "@/lib/mail/outbound/store-outbound-files";
import { checkMailboxSends } from "@/lib/mail/send/check-mailbox-sends";
import { checkSendLists } from "@/lib/mail/send/check-send-lists";

export interface SendEmailInput {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments: string[];
  reply_to_inbox: boolean;
}

/**
 * email_send: one message per recipient from the project address, queued for delivery in the caller's
 * transaction. The project address is a mailbox like any other: a disabled or read-only one sends nothing, and its
 * send lists hold (a recipient who bounced or complained is POLICY_DENIED, naming `to.<i>`). Then route (relay),
 * attachments, and the quota last, as the final write: a refused call rolls back and leaves nothing behind. The
 * project policy's gate is in front of this (send-email-gated.ts).
 */
export async function sendEmail(
  tx: Executor,
  opts: { actor: Actor /** Store as `pending` until an approval releases it. */; hold?: boolean } & SendEmailInput,
) {
  const { actor } = opts;
  const seen = new Set<string>();
  for (const [i, to] of opts.to.entries()) {
    if (seen.has(to.toLowerCase())) throw fieldError(`to.${i}`, `${to} is listed twice; each recipient gets one message`);
    seen.add(to.toLowerCase());
  }
  const mailbox = await defaultMailbox(tx, actor.projectId);
  checkMailboxSends(mailbox, { tool: "email_send", byAgent: actor.type === "key" });
  await checkSendLists(tx, { projectId: actor.projectId, mailboxId: mailbox.id, fields: opts.to.map((address, i) => ({ field: `to.${i}`, address })) });
  const localDomains = await checkRoute(tx, actor.projectId, opts.to);
  const files = await resolveAttachments(tx, actor, opts.attachments);
  const blobs = await storeOutboundFiles(tx, actor.projectId, files);
  const batchId = newId("bat");
  const status = opts.hold ? ("pending" as const) : ("queued" as const);
  await tx.insert(mailBatches).values({ id: batchId, projectId: actor.projectId, status, keyId: actor.keyId, agent: actor.agent, recipients: opts.to.length });
  const queued = await queueMessages(tx, {
    mailbox,
    to: opts.to,
    subject: opts.subject,
    text: opts.text,
    html: opts.html ?? null,
    attachments: blobs,
    localDomains,
    batchId,
    replyToInbox: opts.reply_to_inbox,
    countsQuota: true,
    keyId: actor.keyId,
    agent: actor.agent,
    status,
  });
  // Last, as every sender does: the counters stay locked until commit (a refusal rolls the messages back).
  await reserveQuota(tx, actor.projectId, opts.to.length);
  const messages = queued.map((m) => ({ message_id: m.id, to: m.to[0], status: m.status }));
  return { status, batch_id: batchId, request_id: null as string | null, messages };
}
