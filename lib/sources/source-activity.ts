import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { query } from "@/lib/db/statement";
import { isClaimable } from "@/lib/events/event-status";

/** Per source name: claimable events waiting, and when the last one arrived (each an index lookup per source). */
export async function sourceActivity(
  db: Executor,
  opts: { projectId: string; names: string[] },
): Promise<Map<string, { pending: number; lastReceivedAt: Date | null }>> {
  const out = new Map<string, { pending: number; lastReceivedAt: Date | null }>();
  if (opts.names.length === 0) return out;
  const rows = await query<{ name: string; pending: number; last: Date | null }>(
    db,
    sql`select s.name,
          (select count(*)::int from ${events} where ${events.projectId} = ${opts.projectId} and ${events.source} = s.name and ${isClaimable}) as pending,
          (select max(${events.receivedAt}) from ${events} where ${events.projectId} = ${opts.projectId} and ${events.source} = s.name) as last
        from unnest(array[${sql.join(
          opts.names.map((n) => sql`${n}`),
          sql`, `,
        )}]::text[]) as s(name)`,
  );
  for (const r of rows) out.set(r.name, { pending: r.pending, lastReceivedAt: r.last });
  return out;
}
