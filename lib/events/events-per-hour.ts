import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";

/** Events received per hour and source over the last `hours`, oldest hour first (a range scan of received_idx). */
export async function eventsPerHour(db: Executor, opts: { projectId: string; hours: number }) {
  const rows = await query<{ hour: string; source: string; n: number }>(
    db,
    sql`select to_char(date_trunc('hour', ${events.receivedAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24":00Z"') as hour,
          ${events.source} as source, count(*)::int as n
        from ${events}
        where ${events.projectId} = ${opts.projectId} and ${events.receivedAt} >= now() - make_interval(hours => ${opts.hours})
        group by 1, 2 order by 1, 2`,
  );
  return rows.map((r) => ({ hour: r.hour, source: r.source, count: r.n }));
}
