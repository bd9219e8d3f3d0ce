import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events, eventStatuses, type EventStatus } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { notBookkeeping } from "@/lib/events/bookkeeping";
import { effectiveStatus, isLive } from "@/lib/events/event-status";
import { typeCondition } from "@/lib/events/type-filter";

/**
 * Events per status as callers see them (expired leases count as pending or dead), under the same source, type and
 * bookkeeping filters as the list beside them. Live rows are counted through their partial index; done and dead
 * through the status index, never a scan of the whole table. Done events pile up for ever (100,000 of them took
 * most of the Events screen's 1.2 s), so a caller that shows "1,000+" passes `doneUpTo`: done is then counted up to
 * one past it, and a count above `doneUpTo` means "more than that".
 */
export async function countEventsByStatus(
  db: Executor,
  opts: { projectId: string; source?: string; type?: string; hideBookkeeping?: boolean; doneUpTo?: number },
): Promise<Record<EventStatus, number>> {
  const counts = Object.fromEntries(eventStatuses.map((s) => [s, 0])) as Record<EventStatus, number>;
  const filters: SQL[] = [];
  if (opts.source) filters.push(eq(events.source, opts.source));
  if (opts.type) filters.push(typeCondition(opts.type));
  if (opts.hideBookkeeping) filters.push(notBookkeeping);
  const extra = filters.length ? sql` and ${and(...filters)}` : sql``;
  // Statuses written as literals, not parameters, so even a generic plan can prove the status index's predicate.
  const finished =
    opts.doneUpTo === undefined
      ? sql`select ${events.status} as status, count(*)::int as n from ${events}
          where ${events.projectId} = ${opts.projectId} and ${sql.raw("events.status in ('done', 'dead')")}${extra} group by 1`
      : sql`select ${events.status} as status, count(*)::int as n from ${events}
          where ${events.projectId} = ${opts.projectId} and ${sql.raw("events.status = 'dead'")}${extra} group by 1
          union all
          select 'done' as status, count(*)::int as n from (
            select 1 from ${events} where ${events.projectId} = ${opts.projectId} and ${sql.raw("events.status = 'done'")}${extra}
            limit ${opts.doneUpTo + 1}) d`;
  const rows = await query<{ status: EventStatus; n: number }>(
    db,
    sql`select ${effectiveStatus} as status, count(*)::int as n from ${events}
        where ${events.projectId} = ${opts.projectId} and ${isLive}${extra} group by 1
        union all
        ${finished}`,
  );
  for (const r of rows) counts[r.status] += r.n;
  return counts;
}
