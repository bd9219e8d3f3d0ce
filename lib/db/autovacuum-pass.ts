import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/statement";

/**
 * PostgreSQL's autovacuum thresholds, at their defaults: a table is vacuumed once its dead rows exceed 50 + 20 % of
 * its rows (or its rows inserted since the last vacuum exceed 1,000 + 20 %, which keeps the visibility map fresh),
 * and analyzed once its rows changed since the last analyze exceed 50 + 10 %.
 */
const THRESHOLDS = sql`
  with t as (
    select s.relname as name, greatest(c.reltuples, 0) as rows, s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted,
      s.n_mod_since_analyze as changed
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public'
  )
  select name, (dead > 50 + 0.2 * rows or inserted > 1000 + 0.2 * rows) as vacuum, changed > 50 + 0.1 * rows as analyze
  from t where dead > 50 + 0.2 * rows or inserted > 1000 + 0.2 * rows or changed > 50 + 0.1 * rows
  order by name`;

/** What one table got in a pass, and how long it took. */
export interface TableUpkeep {
  table: string;
  work: "vacuum (analyze)" | "vacuum" | "analyze";
  ms: number;
}

/**
 * One pass of what autovacuum does on a PostgreSQL server, for embedded PGlite, which has none: without it an
 * embedded database never has statistics (every plan is costed on default guesses), a GIN index keeps the entry
 * counts of the day it was built, and the dead rows of updated tables (jobs, sessions, deliveries) are never
 * reclaimed. Only the tables past the thresholds, one statement each, so the requests that share PGlite's one
 * connection run between them. ANALYZE is the dear part (2.6 s for 10,000 messages of 20 KB: the search vectors'
 * lexeme statistics), which is why a table is not analyzed on every pass. Returns what each table got and its time.
 */
export async function autovacuumPass(db: Db): Promise<TableUpkeep[]> {
  const due = await query<{ name: string; vacuum: boolean; analyze: boolean }>(db, THRESHOLDS);
  const done: TableUpkeep[] = [];
  for (const t of due) {
    const work = t.vacuum && t.analyze ? "vacuum (analyze)" : t.vacuum ? "vacuum" : "analyze";
    const started = performance.now();
    // Maintenance statements take no bound parameters; the name comes from the catalog, quoted as an identifier.
    await db.execute(sql.raw(`${work} "${t.name.replaceAll('"', '""')}"`));
    done.push({ table: t.name, work, ms: Math.round(performance.now() - started) });
  }
  return done;
}
