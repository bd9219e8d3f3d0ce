import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

/*
 * The label statements of the mail store. Ids and labels go in as one JSON parameter each (drizzle's template would
 * spread a JS array into a parameter list).
 */

const ids = (list: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))`;

/**
 * Locks the messages a label change targets (every message of some threads, or some messages), in id order as
 * eraseMessages locks them. Under READ COMMITTED the statements after it then read the labels as committed by any
 * change that held these rows before: without it, two concurrent changes both start from the same old labels and
 * the later commit drops the earlier one's labels.
 */
export function lockLabelTargets(tx: Executor, o: { projectId: string; threadIds?: readonly string[]; messageIds?: readonly string[] }) {
  const target = o.threadIds ? sql`thread_id in ${ids(o.threadIds)}` : sql`id in ${ids(o.messageIds ?? [])}`;
  return query<{ id: string; threadId: string }>(
    tx,
    sql`select id, thread_id from mail_messages where project_id = ${o.projectId} and ${target} order by id for update`,
  );
}

/**
 * Locks threads before their summary is recomputed from their messages, so the recomputing statement starts after
 * any other change to the same threads has committed and sees its messages (a label change on another message of
 * the thread, which lockLabelTargets does not wait for). Messages first, then threads: the order every writer of
 * both takes (eraseMessages, the quarantine release), so these writers cannot deadlock one another.
 */
export function lockThreads(tx: Executor, projectId: string, threadIds: readonly string[]) {
  return query<{ id: string }>(tx, sql`select id from mail_threads where project_id = ${projectId} and id in ${ids(threadIds)} order by id for update`);
}

/**
 * Adds and removes labels on some messages (locked by lockLabelTargets): each message's labels become the sorted
 * set (labels ∪ add) − remove, computed from the row being written. Only rows that change are written; their
 * threads come back.
 */
export function relabelMessages(tx: Executor, o: { projectId: string; messageIds: readonly string[]; add: readonly string[]; remove: readonly string[] }) {
  const next = sql`(select coalesce(jsonb_agg(distinct v order by v), '[]'::jsonb)
                    from jsonb_array_elements_text(m.labels || ${JSON.stringify(o.add)}::jsonb) as e(v)
                    where v not in ${ids(o.remove)})`;
  return query<{ threadId: string }>(
    tx,
    sql`update mail_messages m set labels = ${next}, updated_at = now()
        where m.project_id = ${o.projectId} and m.id in ${ids(o.messageIds)} and m.labels is distinct from ${next}
        returning m.thread_id`,
  );
}

/**
 * A thread's label union and visible_at, from its messages as they are now: visible_at is the newest message that
 * is normal mail (not spam, blocked or unauthenticated) and not in the trash; null hides the thread by default.
 */
export function refreshThreadLabels(tx: Executor, projectId: string, threadIds: readonly string[]) {
  return query<{ id: string }>(
    tx,
    sql`update mail_threads t set
          labels = (select coalesce(jsonb_agg(distinct v order by v), '[]'::jsonb)
                    from mail_messages m, jsonb_array_elements_text(m.labels) as e(v)
                    where m.project_id = t.project_id and m.thread_id = t.id),
          visible_at = (select max(m.msg_at) from mail_messages m
                        where m.project_id = t.project_id and m.thread_id = t.id
                          and m.category = 'normal' and not m.labels @> '["trash"]'::jsonb),
          updated_at = now()
        where t.project_id = ${projectId} and t.id in ${ids(threadIds)}
        returning t.id`,
  );
}
