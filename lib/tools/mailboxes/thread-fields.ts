import { z } from "zod";
import { messageOutput } from "@/lib/tools/mailboxes/message-fields";

/** Trimmed, as inboxIdField (inbox-fields.ts). */
export const threadIdField = z.string().trim().min(1).max(64).describe("The thread: `thr_…`, from list_threads or a message's `thread_id`.");

export const optionalInboxIdField = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .optional()
  .describe("The inbox (id or address). Omitted: every inbox the key may read (a restricted key: its own).");

/** One thread's summary, as every thread tool returns it (camelCase; callers receive snake_case). */
export const threadOutput = z.object({
  threadId: z.string(),
  inboxId: z.string(),
  labels: z.array(z.string()).describe("The union of its messages' labels."),
  timestamp: z.string().describe("When its newest message arrived or was sent."),
  subject: z.string().nullable(),
  preview: z.string().nullable().describe("The newest message's preview (the reply without quoted history, ≤ 200 characters)."),
  senders: z.array(z.string()),
  recipients: z.array(z.string()),
  messageCount: z.number().int(),
  size: z.number().int().describe("Bytes of all its messages."),
  lastMessageId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const threadPage = z.object({
  count: z.number().int().describe("Threads on this page."),
  limit: z.number().int(),
  nextPageToken: z.string().nullable().describe("Pass as `pageToken` for the next page; null on the last page."),
  threads: z.array(threadOutput),
});

/** get_thread: the summary plus a page of its messages in full. */
export const threadWithMessages = threadOutput.extend({
  count: z.number().int().describe("Messages on this page."),
  limit: z.number().int(),
  nextPageToken: z.string().nullable().describe("Pass as `pageToken` for older messages; null when this page reaches the first."),
  messages: z.array(messageOutput).describe("Newest messages first across pages; oldest → newest within a page."),
});
