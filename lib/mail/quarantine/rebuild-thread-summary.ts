import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { baseSubject } from "@/lib/mail/inbound/base-subject";

/**
 * Recomputes a thread's summary from the messages it holds now, after a message changed category or left it
 * (the incremental addToThread only ever adds). The rules are thread-summary.ts's: visible_at is the newest normal
 * message not in the trash, and it gives last_message_id and the preview (any message while none is visible), labels the union,
 * participants deduplicated in arrival order (50 at most), and the subject the oldest remaining message's, so an
 * erased first message takes its subject with it. A thread left without messages is deleted. Returns whether the
 * thread still exists.
 *
 * Deleting a message needs all of it (counts, last message, participants), not only lib/mail/labels' union and visible_at.
 */
export async function rebuildThreadSummary(tx: Executor, o: { projectId: string; threadId: string }): Promise<boolean> {
  const { projectId, threadId } = o;
  const [first] = await query<{ subject: string | null }>(
    tx,
    sql`select subject from mail_messages where project_id = ${projectId} and thread_id = ${threadId} order by msg_at, id limit 1`,
  );
  const subject = first?.subject ?? null;
  const updated = await query<{ id: string }>(
    tx,
    sql`
      with msgs as (
        select id, msg_at, direction, preview, from_address, "to", cc, size_bytes, labels, category,
          category = 'normal' and not labels @> '["trash"]'::jsonb as visible
        from mail_messages where project_id = ${projectId} and thread_id = ${threadId}
      ), senders as (
        select coalesce(jsonb_agg(a order by first_at), '[]'::jsonb) as v from (
          select lower(from_address) as a, min(msg_at) as first_at from msgs where from_address is not null
          group by lower(from_address) order by min(msg_at) limit 50) s
      ), recipients as (
        select coalesce(jsonb_agg(a order by first_at), '[]'::jsonb) as v from (
          select lower(r) as a, min(msg_at) as first_at from msgs, jsonb_array_elements_text("to" || cc) as r
          group by lower(r) order by min(msg_at) limit 50) s
      ), labels as (
        select coalesce(jsonb_agg(distinct l order by l), '[]'::jsonb) as v from msgs, jsonb_array_elements_text(labels) as l
      ), s as (
        select count(*)::int as n,
          max(msg_at) as last_at,
          case when bool_or(visible) then (array_agg(id order by msg_at desc, id desc) filter (where visible))[1]
            else (array_agg(id order by msg_at desc, id desc))[1] end as last_id,
          case when bool_or(visible) then (array_agg(preview order by msg_at desc, id desc) filter (where visible))[1]
            else (array_agg(preview order by msg_at desc, id desc))[1] end as preview,
          max(msg_at) filter (where direction = 'inbound') as last_received_at,
          max(msg_at) filter (where direction = 'outbound') as last_sent_at,
          coalesce(sum(size_bytes), 0)::int as size_bytes,
          max(msg_at) filter (where visible) as visible_at
        from msgs
      )
      update mail_threads t set
        message_count = s.n, last_message_at = s.last_at, last_message_id = s.last_id, preview = s.preview,
        senders = (select v from senders), recipients = (select v from recipients),
        last_received_at = s.last_received_at, last_sent_at = s.last_sent_at, size_bytes = s.size_bytes,
        attachment_count = (select count(*)::int from mail_attachments a where a.project_id = ${projectId}
          and a.message_id in (select id from msgs)),
        labels = (select v from labels), visible_at = s.visible_at,
        subject = ${subject}, base_subject = ${baseSubject(subject)}, updated_at = now()
      from s
      where t.project_id = ${projectId} and t.id = ${threadId} and s.n > 0
      returning t.id`,
  );
  if (updated.length > 0) return true;
  await query(
    tx,
    sql`delete from mail_threads where project_id = ${projectId} and id = ${threadId}
      and not exists (select 1 from mail_messages where project_id = ${projectId} and thread_id = ${threadId})`,
  );
  return false;
}
