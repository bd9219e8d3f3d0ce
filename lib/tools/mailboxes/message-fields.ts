import { z } from "zod";

/** Trimmed, as inboxIdField (inbox-fields.ts): ` msg_…` was otherwise taken for an RFC Message-ID and not found. */
export const messageIdField = z
  .string()
  .trim()
  .min(1)
  .max(998)
  .describe("The message: `msg_…`, or its RFC Message-ID with or without angle brackets (`<abc@example.com>`).");

export const attachmentOutput = z.object({
  attachmentId: z.string().describe("`att_…`: pass to get_attachment with the thread id."),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  inline: z.boolean(),
});

/** A message without its bodies: what list_messages and search_messages return. */
export const messageItemOutput = z.object({
  inboxId: z.string(),
  threadId: z.string(),
  messageId: z.string().describe("`msg_…`"),
  rfcMessageId: z
    .string()
    .nullable()
    .describe(
      "The Message-ID header, without angle brackets; `messageId` arguments accept it too. Mail that came without one gets an id made from its bytes, ending `@no-message-id.invalid`.",
    ),
  labels: z.array(z.string()),
  timestamp: z.string().describe("When it was received (inbound) or sent (outbound)."),
  from: z.string().nullable().describe("`Name <address>` or the bare address."),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  replyTo: z.array(z.string()),
  subject: z.string().nullable(),
  preview: z.string().nullable().describe("The reply without quoted history, ≤ 200 characters."),
  attachments: z.array(attachmentOutput).describe("Metadata only; the bytes come from get_attachment."),
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
  size: z.number().int().describe("Bytes of the raw message."),
  authentication: z
    .object({ spf: z.string(), dkim: z.string(), dmarc: z.string() })
    .nullable()
    .describe("SPF, DKIM and DMARC verdicts computed on arrival (inbound)."),
  sendStatus: z.string().nullable().describe("Outbound only: queued, sending, sent, failed, bounced…"),
  sendReason: z.string().nullable().describe("Outbound only: why it failed or bounced."),
  direction: z.enum(["inbound", "outbound"]),
  createdAt: z.string(),
});

/** A message in full: get_message and get_thread. */
export const messageOutput = messageItemOutput.extend({
  text: z.string().nullable(),
  html: z.string().nullable().describe("As received: never render it with scripts or remote content enabled."),
  extractedText: z.string().nullable().describe("`text` without the quoted history."),
  extractedHtml: z.string().nullable().describe("`html` cut before the first quoted block."),
});

export const messagePage = z.object({
  count: z.number().int().describe("Messages on this page."),
  limit: z.number().int(),
  nextPageToken: z.string().nullable().describe("Pass as `pageToken` for the next page; null on the last page."),
  messages: z.array(messageItemOutput),
});
