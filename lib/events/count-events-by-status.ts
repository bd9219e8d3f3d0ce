import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events, eventStatuses, type EventStatus } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { effectiveStatus, isLive } from "@/lib/events/event-status";

/**
 * Events per status as callers see them (expired leases count as pending or dead). Live rows are counted through
 * their partial index; done and dead through the status index, never a scan of the whole table.
 */
export async function countEventsByStatus(db: Executor, opts: { projectId: string; source?: string }): Promise<Record<EventStatus, number>> {
  const counts = Object.fromEntries(eventStatuses.map((s) => [s, 0])) as Record<EventStatus, number>;
  const bySource = opts.source ? sql` and ${events.source} = ${opts.source}` : sql``;
  const rows = await query<{ status: EventStatus; n: number }>(
    db,
    sql`select ${effectiveStatus} as status, count(*)::int as n from ${events}
        where ${events.projectId} = ${opts.projectId} and ${isLive}${bySource} group by 1
        union all
        select ${events.status} as status, count(*)::int as n from ${events}
        where ${and(eq(events.projectId, opts.projectId), inArray(events.status, ["done", "dead"]))}${bySource} group by 1`,
  );
  for (const r of rows) counts[r.status] += r.n;
  return counts;
}
