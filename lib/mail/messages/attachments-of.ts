import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import type { AttachmentView } from "@/lib/mail/messages/message-view";

/**
 * One message's attachment metadata (no bytes, no blob keys) as a JSON array in `AttachmentView`'s shape, in the
 * order they were stored: the one definition of that shape in SQL, for a select list that has the message's id
 * and project id at hand (the page statement, message-page.ts) and for attachmentsOf.
 */
export const attachmentsJson = (messageId: SQL, projectId: SQL): SQL =>
  sql`coalesce((select json_agg(json_build_object('attachmentId', a.id, 'filename', a.name, 'contentType', a.content_type, 'size', a.size_bytes, 'inline', a.inline) order by a.created_at, a.id)
    from mail_attachments a where a.message_id = ${messageId} and a.project_id = ${projectId}), '[]'::json)`;

/** Attachment metadata of these messages in one statement, by message id. */
export async function attachmentsOf(db: Executor, projectId: string, messageIds: readonly string[]): Promise<Map<string, AttachmentView[]>> {
  if (messageIds.length === 0) return new Map();
  const rows = await query<{ id: string; attachments: AttachmentView[] }>(
    db,
    sql`select ids.id, ${attachmentsJson(sql`ids.id`, sql`${projectId}::text`)} as attachments from jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb) as ids(id)`,
  );
  return new Map(rows.map((r) => [r.id, r.attachments]));
}
