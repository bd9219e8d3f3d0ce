import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailWebhookAttempts } from "@/lib/db/schema/mail-webhooks";
import { query } from "@/lib/db/statement";

/**
 * Delivery attempts per hour over the last `hours`, split into successes and failures, oldest hour first: the Webhooks
 * screen's chart (a range scan of the attempts' project index). Only hours with attempts come back.
 */
export async function webhookAttemptsPerHour(db: Executor, opts: { projectId: string; hours: number; webhookId?: string | null }) {
  const a = mailWebhookAttempts;
  const rows = await query<{ hour: string; ok: number; failed: number }>(
    db,
    sql`select to_char(date_trunc('hour', ${a.at} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24":00Z"') as hour,
          count(*) filter (where ${a.ok})::int as ok, count(*) filter (where not ${a.ok})::int as failed
        from ${a}
        where ${a.projectId} = ${opts.projectId} and ${a.at} >= now() - make_interval(hours => ${opts.hours})
          ${opts.webhookId ? sql`and ${a.webhookId} = ${opts.webhookId}` : sql``}
        group by 1 order by 1`,
  );
  return rows.map((r) => ({ hour: r.hour, succeeded: r.ok, failed: r.failed }));
}
