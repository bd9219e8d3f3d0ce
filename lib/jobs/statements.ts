import { getTableColumns } from "drizzle-orm";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";
import { columnList, statement } from "@/lib/db/statement";

/*
 * The job runner's hand-written statements (lib/db/statement.ts): a claim runs every time a lane has room, and an
 * insert with every queued job. Built by drizzle they cost a sent message about 0.4 ms of API CPU, 8 % of it
 * (bench/mail-send.ts, A/B in the commit that wrote them).
 */

/**
 * Takes up to $1 due jobs (of the kinds $2 if given, none of the kinds $3 if given) for a lease of $4 seconds.
 * SKIP LOCKED lets concurrent runners (threads of one process or other instances) pick disjoint rows without waiting
 * on each other; the scan uses only the partial index of pending rows.
 *
 * The due rows are picked in a CTE, which runs once: as an `id IN (subquery … LIMIT n FOR UPDATE SKIP LOCKED)` the
 * planner made a nested-loop semi join that ran the subquery again for every pending row, each run skipping the
 * rows the earlier ones had locked, so a claim of 2 took every due job (measured on PostgreSQL 15 and PGlite) and
 * no concurrency limit held.
 */
export const claimDueJobs = statement<JobRow, [limit: number, kinds: string[] | null, exceptKinds: string[] | null, leaseSeconds: number]>(`
  with due as (
    select id from jobs
    where status = 'pending' and run_at <= now()
      and ($2::text[] is null or kind = any($2::text[]))
      and ($3::text[] is null or kind <> all($3::text[]))
    order by run_at
    limit $1
    for update skip locked
  )
  update jobs set status = 'running', attempts = jobs.attempts + 1, locked_until = now() + make_interval(secs => $4::float8), updated_at = now()
  from due where jobs.id = due.id and jobs.status = 'pending'
  returning ${columnList(getTableColumns(jobs))}`);

/**
 * Jobs of one kind, as a JSON array of rows (id, project_id, kind, payload, run_at, max_attempts, dedupe_key); a
 * null run_at is now(). A row whose dedupe key exists already is skipped: the ids returned are the rows inserted.
 */
export const insertJobs = statement<{ id: string }, [rows: string]>(`
  insert into jobs (id, project_id, kind, payload, run_at, max_attempts, dedupe_key)
  select id, project_id, kind, payload, coalesce(run_at, now()), max_attempts, dedupe_key
  from json_populate_recordset(null::jobs, $1::json)
  on conflict do nothing
  returning id`);
