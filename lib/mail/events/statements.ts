import { statement } from "@/lib/db/statement";

/* The mail outbox's hand-written statement (lib/db/statement.ts): one per stored message on the inbound path. */

export type InsertMailEventParams = [
  id: string,
  projectId: string,
  mailboxId: string | null,
  type: string,
  messageId: string | null,
  threadId: string | null,
  draftId: string | null,
  summary: string,
];

export const insertMailEvent = statement<never, InsertMailEventParams>(`
  insert into mail_events (id, project_id, mailbox_id, type, message_id, thread_id, draft_id, summary)
  values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`);
