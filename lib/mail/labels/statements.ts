import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

/*
 * The label statements of the mail store. Ids and labels go in as one JSON parameter each (drizzle's template would
 * spread a JS array into a parameter list).
 */

const ids = (list: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))`;

/**
 * Adds and removes labels on the messages of some threads, or on some messages: each message's labels become the
 * sorted set (labels ∪ add) − remove. Only rows that change are written; their threads come back.
 */
export function relabelMessages(
  tx: Executor,
  o: { projectId: string; threadIds?: readonly string[]; messageIds?: readonly string[]; add: readonly string[]; remove: readonly string[] },
) {
  const target = o.threadIds ? sql`x.thread_id in ${ids(o.threadIds)}` : sql`x.id in ${ids(o.messageIds ?? [])}`;
  return query<{ threadId: string }>(
    tx,
    sql`update mail_messages m set labels = n.labels, updated_at = now()
        from (select x.id, (select coalesce(jsonb_agg(distinct v order by v), '[]'::jsonb)
                            from jsonb_array_elements_text(x.labels || ${JSON.stringify(o.add)}::jsonb) as e(v)
                            where v not in ${ids(o.remove)}) as labels
              from mail_messages x where x.project_id = ${o.projectId} and ${target}) n
        where m.project_id = ${o.projectId} and m.id = n.id and m.labels is distinct from n.labels
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
