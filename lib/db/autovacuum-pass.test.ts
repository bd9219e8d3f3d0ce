import { inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { autovacuumPass } from "@/lib/db/autovacuum-pass";
import { jobs } from "@/lib/db/schema/jobs";
import { query } from "@/lib/db/statement";
import { newId } from "@/lib/ids";

/**
 * The embedded autovacuum (lib/services/embedded-autovacuum.ts). PGlite only: on a server, its own autovacuum and
 * the statistics' flush interval would race the assertions, and this pass never runs there.
 */
const onPglite = !/^postgres/.test(process.env.DATABASE_URL ?? "");

describe.runIf(onPglite)("autovacuumPass", () => {
  it("analyzes a table once enough of it changed, leaves it alone when nothing did, and vacuums its dead rows", async () => {
    const db = await getDb();
    const ids = Array.from({ length: 2000 }, () => newId("job"));
    await db.insert(jobs).values(ids.map((id, i) => ({ id, projectId: null, kind: `test.vacuum-${i % 7}`, payload: {}, maxAttempts: 3 })));
    // A backend reports its counts at most once a second; the service's pass comes a minute apart, the test's at once.
    const pass = async () => {
      await db.execute(sql`select pg_stat_force_next_flush()`);
      return (await autovacuumPass(db)).find((p) => p.table === "jobs")?.work;
    };

    expect(await pass()).toBe("vacuum (analyze)");
    // The planner now knows a kind holds about a seventh of the rows, where it guessed before.
    const plan = await query<{ "QUERY PLAN": string }>(db, sql`explain select id from jobs where kind = 'test.vacuum-3'`);
    const rows = Number(plan[0]["QUERY PLAN"].match(/rows=(\d+)/)?.[1]);
    expect(rows).toBeGreaterThan(200);
    expect(rows).toBeLessThan(500);

    expect(await pass()).toBeUndefined();

    await db.delete(jobs).where(inArray(jobs.id, ids.slice(0, 1500)));
    expect(await pass()).toBe("vacuum (analyze)");
    await db.execute(sql`select pg_stat_force_next_flush()`);
    const [stats] = await query<{ dead: number }>(db, sql`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'jobs'`);
    expect(stats.dead).toBe(0);
  });
});
