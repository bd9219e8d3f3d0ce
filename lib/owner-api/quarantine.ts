import { z } from "zod";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { DELETE_OP, deleteQuarantined } from "@/lib/mail/quarantine/delete-quarantined";
import { listQuarantine } from "@/lib/mail/quarantine/list-quarantine";
import { listRejections } from "@/lib/mail/quarantine/list-rejections";
import { ownerListInput, ownerPageAfter, ownerPageOf } from "@/lib/mail/quarantine/owner-page";
import { quarantineCategories } from "@/lib/mail/quarantine/quarantine-categories";
import { RELEASE_OP, releaseMessage } from "@/lib/mail/quarantine/release-message";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Owner-only mail (design §1.5 N1): quarantine and the SMTP rejection log, never over MCP or to API keys. */

const QUARANTINE = "owner_quarantine_list";
const REJECTIONS = "owner_rejections_list";
const inboxField = z.string().min(1).max(320).optional().describe("Only this mailbox: its id (`mbx_…`) or address.");
const messageId = z.object({ message_id: z.string().regex(/^msg_[A-Za-z0-9]{1,40}$/, "must be a message id, `msg_…`") }).strict();

const quarantined = z.object({
  id: z.string(),
  inbox_id: z.string(),
  inbox_address: z.string(),
  thread_id: z.string(),
  from: z.string().nullable(),
  from_name: z.string().nullable(),
  to: z.array(z.string()),
  subject: z.string().nullable(),
  preview: z.string().nullable(),
  category: z.enum(quarantineCategories),
  reason: z.string().describe("Why it is here: the failed SPF/DKIM/DMARC verdicts, the list entry that blocks the sender, or the relay's spam flag."),
  received_at: z.string(),
});

export const listQuarantineRoute = defineOwnerRoute({
  name: QUARANTINE,
  description:
    "Lists quarantined inbound mail (spam, blocked, unauthenticated), newest first, with the reason for each. Filter by `inbox_id` and `category`; pass `next_page_token` back as `page_token`.",
  input: ownerListInput({ inbox_id: inboxField, category: z.enum(quarantineCategories).optional() }),
  output: z.object({ messages: z.array(quarantined), next_page_token: z.string().nullable() }),
  rest: { method: "GET", path: "/owner/quarantine" },
  handler: async (ctx, input) => {
    const after = ownerPageAfter(QUARANTINE, ctx.actor, input);
    const mailboxId = input.inbox_id ? (await findMailbox(ctx.db, ctx.actor, input.inbox_id)).id : null;
    const rows = await listQuarantine(ctx.db, { actor: ctx.actor, mailboxId, category: input.category, limit: input.limit + 1, after });
    const page = ownerPageOf(QUARANTINE, ctx.actor, input, rows, (r) => ({ at: r.pageAt, id: r.id }));
    return {
      messages: page.items.map((r) => ({
        id: r.id,
        inbox_id: r.mailboxId,
        inbox_address: r.mailboxAddress,
        thread_id: r.threadId,
        from: r.fromAddress,
        from_name: r.fromName,
        to: r.to,
        subject: r.subject,
        preview: r.preview,
        category: r.category,
        reason: r.reason,
        received_at: r.msgAt.toISOString(),
      })),
      next_page_token: page.nextPageToken,
    };
  },
});

export const releaseQuarantinedRoute = defineOwnerRoute({
  name: "owner_quarantine_release",
  description: "Releases a quarantined message: it becomes normal mail in its mailbox, its thread shows in default lists, and `message.received` is emitted.",
  input: messageId,
  output: z.object({
    id: z.string(),
    inbox_id: z.string(),
    thread_id: z.string(),
    released_from: z.string(),
    labels: z.array(z.string()),
    event_id: z.string().nullable().describe("The `email.received` event made now, for blocked mail to the project address with an email source."),
  }),
  rest: { method: "POST", path: "/owner/quarantine/{message_id}/release" },
  op: RELEASE_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.message_id;
    const r = await releaseMessage(ctx.db, { actor: ctx.actor, messageId: input.message_id });
    return { id: r.id, inbox_id: r.mailboxId, thread_id: r.threadId, released_from: r.releasedFrom, labels: r.labels, event_id: r.eventId };
  },
});

export const deleteQuarantinedRoute = defineOwnerRoute({
  name: "owner_quarantine_delete",
  description: "Deletes a quarantined message for good, with its attachments; a thread left empty goes with it.",
  input: messageId,
  output: z.object({ id: z.string(), inbox_id: z.string(), thread_id: z.string(), thread_deleted: z.boolean() }),
  rest: { method: "DELETE", path: "/owner/quarantine/{message_id}" },
  op: DELETE_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.message_id;
    const r = await deleteQuarantined(ctx.db, { actor: ctx.actor, messageId: input.message_id });
    return { id: r.id, inbox_id: r.mailboxId, thread_id: r.threadId, thread_deleted: r.threadDeleted };
  },
});

export const listRejectionsRoute = defineOwnerRoute({
  name: REJECTIONS,
  description:
    "Lists mail refused during the SMTP conversation (kept 30 days), newest first: remote IP, MAIL FROM, RCPT, code and reason. `q` finds an address or part of one in MAIL FROM or RCPT.",
  input: ownerListInput({ q: z.string().trim().min(1).max(320).optional(), inbox_id: inboxField }),
  output: z.object({
    rejections: z.array(
      z.object({
        id: z.string(),
        inbox_id: z.string().nullable(),
        remote_ip: z.string().nullable(),
        helo: z.string().nullable(),
        mail_from: z.string().nullable(),
        rcpt: z.string(),
        smtp_code: z.string(),
        reason: z.string(),
        at: z.string(),
      }),
    ),
    next_page_token: z.string().nullable(),
  }),
  rest: { method: "GET", path: "/owner/rejections" },
  handler: async (ctx, input) => {
    const after = ownerPageAfter(REJECTIONS, ctx.actor, input);
    const mailboxId = input.inbox_id ? (await findMailbox(ctx.db, ctx.actor, input.inbox_id)).id : null;
    const rows = await listRejections(ctx.db, { actor: ctx.actor, q: input.q, mailboxId, limit: input.limit + 1, after });
    const page = ownerPageOf(REJECTIONS, ctx.actor, input, rows, (r) => ({ at: r.pageAt, id: r.id }));
    return {
      rejections: page.items.map((r) => ({
        id: r.id,
        inbox_id: r.mailboxId,
        remote_ip: r.remoteIp,
        helo: r.helo,
        mail_from: r.mailFrom,
        rcpt: r.rcpt,
        smtp_code: r.smtpCode,
        reason: r.reason,
        at: r.at.toISOString(),
      })),
      next_page_token: page.nextPageToken,
    };
  },
});
