import { getTableColumns } from "drizzle-orm";
import {
  mailAttachments,
  mailMessages,
  mailRelays,
  mailThreads,
  messageColumns,
  type MailAttachment,
  type MailMessage,
  type MailRelay,
} from "@/lib/db/schema/mail";
import { type DeliveryStatus, mailDeliveries, type MailDelivery } from "@/lib/db/schema/mail-send";
import { columnList, insertRows, statement } from "@/lib/db/statement";
import { NEW_THREAD_KEYS, type NewThreadRow } from "@/lib/mail/inbound/statements";

/*
 * The send and delivery paths' hand-written statements (lib/db/statement.ts): every outbound message runs each of
 * them once or more. Built by drizzle, whose builder walks the message's 45 columns on every call, they cost a sent
 * message about 1.4 ms of API CPU (bench/mail-send.ts, A/B in the commits that wrote them).
 */

const OUTBOUND_MESSAGE_KEYS = [
  "id",
  "projectId",
  "mailboxId",
  "threadId",
  "direction",
  "status",
  "rfcMessageId",
  "inReplyTo",
  "references",
  "inReplyToMessageId",
  "fromAddress",
  "fromName",
  "to",
  "cc",
  "bcc",
  "replyToAddresses",
  "subject",
  "text",
  "html",
  "extractedText",
  "extractedHtml",
  "preview",
  "msgAt",
  "labels",
  "sendStatus",
  "headers",
  "customHeaders",
  "draftId",
  "batchId",
  "replyToInbox",
  "countsQuota",
  "keyId",
  "agent",
  "sealedBodyEnc",
] as const;

/** What queueOutbound writes of a message; every other column takes its default. */
export type OutboundMessageRow = Pick<MailMessage, (typeof OUTBOUND_MESSAGE_KEYS)[number]>;
export const insertOutboundMessages = insertRows<OutboundMessageRow>(mailMessages, OUTBOUND_MESSAGE_KEYS);

/** A thread an outbound message starts, with its summary (the same columns as a received message's). */
export const insertNewThreads = insertRows<NewThreadRow>(mailThreads, NEW_THREAD_KEYS);

export type NewDeliveryRow = Pick<MailDelivery, "id" | "projectId" | "messageId" | "route" | "recipients">;
export const insertDeliveries = insertRows<NewDeliveryRow>(mailDeliveries, ["id", "projectId", "messageId", "route", "recipients"]);

const MESSAGE = columnList(messageColumns);

export type MessageRow = Omit<MailMessage, "search">;

/**
 * A delivery taken for sending (still queued, or left sending by a crashed attempt), and its message, in one round
 * trip. No row: the delivery is gone or already settled. `deliveryWas` is its status before: `sending` means an
 * earlier attempt never recorded its outcome.
 */
export const startDelivery = statement<
  MessageRow & { deliveryRoute: MailDelivery["route"]; deliveryRecipients: string[]; deliveryWas: "queued" | "sending"; senderDeleted: boolean },
  [projectId: string, deliveryId: string]
>(`
  with d as (
    update mail_deliveries set status = 'sending', attempts = mail_deliveries.attempts + 1, updated_at = now()
    from (select id, status from mail_deliveries where project_id = $1 and id = $2 and status in ('queued', 'sending') for update) was
    where mail_deliveries.project_id = $1 and mail_deliveries.id = was.id
    returning mail_deliveries.message_id, mail_deliveries.route, mail_deliveries.recipients, was.status as was
  )
  select ${MESSAGE}, d.route as delivery_route, d.recipients as delivery_recipients, d.was as delivery_was,
         -- FOR SHARE waits for a delete_inbox under way (it holds the row from its first write) and reads its outcome.
         coalesce((select sender.deleted_at is not null from mailboxes sender
                   where sender.project_id = $1 and sender.id = mail_messages.mailbox_id for share), false) as sender_deleted
  from d join mail_messages on mail_messages.project_id = $1 and mail_messages.id = d.message_id`);

/**
 * A delivery's outcome, on the delivery this attempt took (still `sending`). Recipients a bounce report rejected
 * while it was queued again (a resend of a send_unknown) stay rejected, with their first reason: this attempt's
 * relay accepting them again says nothing about the mailbox that bounced them.
 */
export const recordDeliveryResult = statement<
  never,
  [projectId: string, deliveryId: string, status: DeliveryStatus, response: string, accepted: string, rejected: string, lastError: string | null, sent: boolean]
>(`
  update mail_deliveries d
  set status = $3, response = $4,
      rejected = d.rejected || coalesce((select jsonb_agg(n) from jsonb_array_elements($6::jsonb) n
                                         where not d.rejected @> jsonb_build_array(jsonb_build_object('recipient', n->'recipient'))), '[]'::jsonb),
      accepted = coalesce((select jsonb_agg(a) from jsonb_array_elements($5::jsonb) a
                           where not d.rejected @> jsonb_build_array(jsonb_build_object('recipient', a))), '[]'::jsonb),
      last_error = $7, sent_at = case when $8::boolean then now() else null end, updated_at = now()
  where project_id = $1 and id = $2 and status = 'sending'`);

/** The message, locked: the deliveries read after it include every one that settled before us. */
export const lockMessage = statement<MessageRow, [projectId: string, messageId: string]>(`
  select ${MESSAGE} from mail_messages where project_id = $1 and id = $2 for update`);

export type RouteRow = Pick<MailDelivery, "status" | "recipients" | "rejected" | "lastError" | "response" | "attempts">;

export const messageRoutes = statement<RouteRow, [projectId: string, messageId: string]>(`
  select status, recipients, rejected, last_error, response, attempts from mail_deliveries where project_id = $1 and message_id = $2`);

/** The message's state as its deliveries left it; sent_at keeps the first time it was sent. */
export const recordMessageState = statement<
  never,
  [
    projectId: string,
    messageId: string,
    status: string,
    sendStatus: string,
    sendReason: string | null,
    attempts: number,
    response: string | null,
    lastError: string | null,
  ]
>(`
  update mail_messages
  set status = $3, send_status = $4, send_reason = $5, attempts = $6, delivery_response = $7, last_error = $8,
      sent_at = case when $3 = 'sent' then coalesce(sent_at, now()) else sent_at end, updated_at = now()
  where project_id = $1 and id = $2`);

/** Records the composed bytes of a message, unless a concurrent delivery recorded its own first (no row then). */
export const recordRawBlob = statement<{ id: string }, [projectId: string, messageId: string, key: string, size: number]>(`
  update mail_messages set raw_blob_key = $3, size_bytes = $4, updated_at = now()
  where project_id = $1 and id = $2 and raw_blob_key is null
  returning id`);

/** A message's attachments, to compose it. */
export const messageAttachments = statement<MailAttachment, [projectId: string, messageId: string]>(`
  select ${columnList(getTableColumns(mailAttachments))} from mail_attachments where project_id = $1 and message_id = $2`);

/** The project's own SMTP relay (Mail settings), if it has one. */
export const projectRelay = statement<MailRelay, [projectId: string]>(`
  select ${columnList(getTableColumns(mailRelays))} from mail_relays where project_id = $1`);
