import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

const list = (items: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(items)}::jsonb))`;

/** The rows an erase needs, locked so a concurrent label change or second delete waits for this one. */
export const lockMessages = (tx: Executor, projectId: string, ids: readonly string[]) =>
  query<{ id: string; threadId: string; rawBlobKey: string | null; direction: string; status: string }>(
    tx,
    sql`select id, thread_id, raw_blob_key, direction, status from mail_messages
        where project_id = ${projectId} and id in ${list(ids)} order by id for update`,
  );

export const attachmentBlobs = (tx: Executor, projectId: string, messageIds: readonly string[]) =>
  query<{ blobKey: string }>(tx, sql`select blob_key from mail_attachments where project_id = ${projectId} and message_id in ${list(messageIds)}`);

/** A reply keeps its In-Reply-To header but no longer points at a row that is gone. */
export const forgetParents = (tx: Executor, projectId: string, ids: readonly string[]) =>
  query(tx, sql`update mail_messages set in_reply_to_message_id = null where project_id = ${projectId} and in_reply_to_message_id in ${list(ids)}`);

export const deleteMessageRows = (tx: Executor, projectId: string, ids: readonly string[]) =>
  query(tx, sql`delete from mail_messages where project_id = ${projectId} and id in ${list(ids)}`);

/**
 * Of these blob keys, those nothing points at any more: no attachment row (a forward re-attaches by reference), no
 * message's raw copy, no event's attachment (`evt_…/name`) and no live file_url link. Called after the caller
 * removed its own rows, in its transaction. The keys are held (a transaction advisory lock each, in key order) before
 * they are counted: two deletes of the last two rows sharing a blob each counted the other's row, deleted but not yet
 * committed, and neither trashed it, so the bytes stayed with nothing naming them (found by helper-112). Held, the
 * second counts once the first committed, and finds nothing.
 */
export async function unreferencedBlobs(tx: Executor, projectId: string, keys: readonly string[]) {
  await query(tx, sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (select k from ${list(keys)} as c(k) order by k) as held`);
  return query<{ blobKey: string }>(
    tx,
    sql`select k as blob_key from ${list(keys)} as c(k)
        where not exists (select 1 from mail_attachments a where a.project_id = ${projectId} and a.blob_key = c.k)
          and not exists (select 1 from mail_messages m where m.project_id = ${projectId} and m.raw_blob_key = c.k)
          and not exists (select 1 from disk_attachments d where d.project_id = ${projectId} and d.blob_key = c.k)
          and not exists (select 1 from disk_links l where l.project_id = ${projectId} and l.blob_key = c.k and l.revoked_at is null)`,
  );
}
