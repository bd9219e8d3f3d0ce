import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { closedHourRollup } from "@/lib/charts/closed-hour-rollup";
import { MAX_WINDOW_HOURS } from "@/lib/charts/time-window";
import { BOOKKEEPING } from "@/lib/events/bookkeeping";
import { typeMatches } from "@/lib/events/type-filter";

const HOUR = 3_600_000;

/**
 * Events received per hour, source and type, for hours that closed kept per process: the chart's 7 days of history
 * are read once, then each load reads the last hour or so (a range scan of received_idx). Grouped by type too, so
 * the screen's Type and bookkeeping filters apply to the kept hours without reading them again.
 */
const eventHours = closedHourRollup("events-per-hour", {
  keepHours: MAX_WINDOW_HOURS + 1,
  read: (db, projectId, from, to) =>
    query<{ hour: number; source: string; type: string; n: number }>(
      db,
      sql`select (floor(extract(epoch from ${events.receivedAt}) / 3600) * ${HOUR})::bigint as hour, ${events.source} as source, ${events.type} as type,
            count(*)::int as n
          from ${events}
          where ${events.projectId} = ${projectId} and ${events.receivedAt} >= ${from.toISOString()}::timestamptz
            ${to ? sql`and ${events.receivedAt} < ${to.toISOString()}::timestamptz` : sql``}
          group by 1, 2, 3`,
    ),
});

/**
 * Events received per hour and source over the last `hours`, oldest hour first, under the screen's filters so the
 * chart shows what the list lists. The chart picks its window from these.
 */
export async function eventsPerHour(
  db: Executor,
  opts: { projectId: string; hours: number; source?: string; type?: string; hideBookkeeping?: boolean; now?: Date },
) {
  const now = opts.now ?? new Date();
  const rows = await eventHours.rows(db, { projectId: opts.projectId, since: new Date(now.getTime() - opts.hours * HOUR), now });
  const counts = new Map<string, { hour: number; source: string; count: number }>();
  for (const r of rows) {
    if (opts.source && r.source !== opts.source) continue;
    if (!typeMatches(opts.type, r.type)) continue;
    if (opts.hideBookkeeping && r.source === BOOKKEEPING.source && r.type === BOOKKEEPING.type) continue;
    const key = `${r.hour} ${r.source}`;
    const c = counts.get(key);
    if (c) c.count += r.n;
    else counts.set(key, { hour: r.hour, source: r.source, count: r.n });
  }
  return [...counts.values()]
    .sort((a, b) => a.hour - b.hour || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))
    .map((c) => ({ hour: `${new Date(c.hour).toISOString().slice(0, 13)}:00Z`, source: c.source, count: c.count }));
}

/**
 * Every source with events in the last `hours`, whatever the screen's filters: with the project's sources, the set the
 * chart's colours come from (lib/charts/source-colors.ts). A source without a row of its own (Brynth's mail, a deleted
 * webhook source, an agent's own) shows up in the unfiltered chart only; left out of the set, it took a colour slot
 * there but not in a filtered view, and a source after it in name order changed colour with the filter.
 */
export async function eventSourceNames(db: Executor, opts: { projectId: string; hours: number; now?: Date }): Promise<string[]> {
  const now = opts.now ?? new Date();
  const rows = await eventHours.rows(db, { projectId: opts.projectId, since: new Date(now.getTime() - opts.hours * HOUR), now });
  return [...new Set(rows.map((r) => r.source))].sort();
}
