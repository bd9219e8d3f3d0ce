import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import { together } from "@/lib/db/together";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

export const dayPeriod = (now: Date) => `d:${now.toISOString().slice(0, 10)}`;
export const monthPeriod = (now: Date) => `m:${now.toISOString().slice(0, 7)}`;
const nextDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
const nextMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/**
 * Counts `n` messages against the day and the month (UTC), or throws QUOTA_EXCEEDED. Each counter is one guarded
 * upsert: concurrent senders queue on the counter row and each re-checks the limit against the committed value,
 * so 60 simultaneous sends against 50 left accept exactly 50. Day before month, always, so two senders never
 * wait on each other crosswise. Rolled back with the caller's transaction. The counter rows stay locked until the
 * caller commits: senders call this as their last write, so concurrent sends queue only for the commit.
 */
export async function reserveQuota(tx: Executor, projectId: string, n: number, now = new Date()): Promise<void> {
  const limits = [
    { period: dayPeriod(now), limit: env().EMAIL_DAILY_LIMIT, what: "day", resets: "at 00:00 UTC", resetsAt: nextDay(now) },
    { period: monthPeriod(now), limit: env().EMAIL_MONTHLY_LIMIT, what: "month", resets: "on the 1st (UTC)", resetsAt: nextMonth(now) },
  ];
  // Both counters in one pipelined round (together): the month is raised even when the day refuses, and the
  // refusal rolls both back with the caller's transaction.
  const used: Array<Array<{ used: number }>> = [[], []];
  await together(
    limits.map(
      (l, i) =>
        n <= l.limit &&
        (async () =>
          void (used[i] = await query<{ used: number }>(
            tx,
            sql`insert into mail_quota (project_id, period, used) values (${projectId}, ${l.period}, ${n})
          on conflict (project_id, period) do update set used = mail_quota.used + ${n}
          where mail_quota.used + ${n} <= ${l.limit}
          returning used`,
          ))),
    ),
  );
  for (const [i, l] of limits.entries()) {
    if (used[i].length === 0) {
      throw new AppError(
        "QUOTA_EXCEEDED",
        `This send needs ${n} message${n === 1 ? "" : "s"}, more than the project has left this ${l.what} (limit ${l.limit} a ${l.what}).`,
        {
          fix: `Send fewer messages or wait: the ${l.what}ly count resets ${l.resets} (${l.resetsAt.toISOString()}). The Outbound mail screen shows the use.`,
          // The caller learns when to try again without parsing text: a retry before then is refused the same way.
          details: { period: l.what, limit: l.limit, resets_at: l.resetsAt.toISOString() },
          headers: { "Retry-After": String(Math.max(1, Math.ceil((l.resetsAt.getTime() - now.getTime()) / 1000))) },
        },
      );
    }
  }
}

/** Messages counted so far today and this month, for the Outbound mail screen. */
export async function quotaUsage(db: Executor, projectId: string, now = new Date()) {
  const rows = await query<{ period: string; used: number }>(
    db,
    sql`select period, used from mail_quota where project_id = ${projectId} and period in (${dayPeriod(now)}, ${monthPeriod(now)})`,
  );
  const used = (p: string) => rows.find((r) => r.period === p)?.used ?? 0;
  return {
    day: { used: used(dayPeriod(now)), limit: env().EMAIL_DAILY_LIMIT },
    month: { used: used(monthPeriod(now)), limit: env().EMAIL_MONTHLY_LIMIT },
  };
}
