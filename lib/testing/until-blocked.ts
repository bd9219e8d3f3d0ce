import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

/**
 * For a race test on PostgreSQL: waits until a statement of this test file's database waits on a lock (the racing
 * call reached the row the other side holds), or the racing call has ended without waiting. Then the test lets the
 * other side commit. Only this database's sessions count: pg_stat_activity is the whole server's, and another test
 * file's wait would let the commit go first.
 */
export async function untilBlocked(racing: Promise<unknown>): Promise<void> {
  let settled = false;
  racing.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  const db = await getDb();
  while (!settled) {
    const [w] = await query<{ n: number }>(
      db,
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (w.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
