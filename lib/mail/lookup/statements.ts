import { getTableColumns } from "drizzle-orm";
import { mailThreads, type MailThread } from "@/lib/db/schema/mail";
import { columnList, statement } from "@/lib/db/statement";

/* The thread lookup get_thread, update_thread and the attachment tools start with (lib/db/statement.ts). */

/** A thread of the project in a live mailbox; `mailboxId` null means any of the project's mailboxes. */
export const liveThread = statement<MailThread, [projectId: string, threadId: string, mailboxId: string | null]>(
  `select ${columnList(getTableColumns(mailThreads))} from mail_threads
    join mailboxes on mailboxes.id = mail_threads.mailbox_id and mailboxes.deleted_at is null
    where mail_threads.project_id = $1 and mail_threads.id = $2 and ($3::text is null or mail_threads.mailbox_id = $3)
    limit 1`,
);
