import { getTableColumns } from "drizzle-orm";
import { jobs, type JobRow } from "@/lib/db/schema/jobs";
import { columnList, statement } from "@/lib/db/statement";

type Nullable<T> = { [K in keyof T]: T[K] | null };

/*
 * The job runner's hand-written statements (lib/db/statement.ts): a claim runs every time a lane has room, and an
 * insert with every queued job. Built by drizzle they cost a sent message about 0.4 ms of API CPU, 8 % of it
 * (bench/mail-send.ts, A/B in the commit that wrote them).
 */

/**
 * Takes up to $1 due jobs (of the kinds $2 if given, none of the kinds $3 if given) for a lease of $4 seconds, the
 * oldest due job of each project in turn (a null project is '', a group of its own): a project's k-th job of this
 * claim ranks at its running count + k, oldest first among equals. `running` counts the lane's jobs running now on
 * every instance (the rows of jobs_running_idx: no more than the instances' slots, and the leases not yet taken
 * back), so a project's turn and share hold across instances, not per process. A project at its share ($5) or over
 * it is given a slot only if $6 slots of the lane then stay free, for a project that comes later; below its share
 * it takes any.
 *
 * The plan never reads past a backlog: `kinds` and `groups` are a loose index scan of jobs_claim_idx (kind,
 * project, run_at), one probe per kind and per (kind, project) with pending rows, whose first row is its oldest, so
 * it says whether anything there is due. `quota` bounds each due project's rows to what it can still win: a k-th
 * row (k ≥ 2) ranks behind the first row of every project running no more than it, and none beyond the first $1
 * projects gets anything. Only then does each (kind, project) lock its oldest due rows, up to that bound.
 * SKIP LOCKED lets concurrent runners (threads of one process or other instances) pick disjoint rows without waiting
 * on each other; the rows locked but not taken are released when the statement commits. The rows taken are updated
 * through `id = any(array(…))`, an index probe each: joined to `ranked`, whose size the planner cannot guess, the
 * update hashed a sequential scan of every pending row (180 ms at 100k).
 *
 * The due rows are locked in a MATERIALIZED CTE, which runs once: as an `id IN (subquery … LIMIT n FOR UPDATE SKIP
 * LOCKED)` the planner made a nested-loop semi join that ran the subquery again for every pending row, each run
 * skipping the rows the earlier ones had locked, so a claim of 2 took every due job (measured on PostgreSQL 15 and
 * PGlite) and no concurrency limit held.
 *
 * Jobs written with a time still to come are parked outside jobs_claim_idx (schema/jobs.ts), so the probes are of
 * projects with work due now, not of every project with a send scheduled or a retry waiting. `promoted` moves the
 * lane's parked jobs whose time came back in, up to 1,000, oldest first (SKIP LOCKED: runners promote side by
 * side), in the claim's own round trip: one probe of jobs_parked_idx when none is due. The claim cannot see them
 * (one snapshot; it never touches the rows `promoted` updates), so the caller claims again when `promoted` > 0.
 * The result has a row even when nothing is claimed, to carry that count: its job columns are null.
 */
export const claimDueJobs = statement<
  Nullable<JobRow> & { promoted: number },
  [limit: number, kinds: string[] | null, exceptKinds: string[] | null, leaseSeconds: number, share: number, reserve: number]
>(`
  with recursive promoted as (
    update jobs set parked = false
    where id = any(array(
      select id from jobs
      where status = 'pending' and parked and run_at <= now()
        and ($2::text[] is null or kind = any($2::text[])) and ($3::text[] is null or kind <> all($3::text[]))
      order by run_at limit 1000
      for update skip locked
    ))
    returning 1
  ), kinds as (
    (select kind from jobs where status = 'pending' and not parked order by kind limit 1)
    union all
    select (select j.kind from jobs j where j.status = 'pending' and not j.parked and j.kind > k.kind order by j.kind limit 1)
    from kinds k where k.kind is not null
  ), groups as (
    select f.* from kinds k cross join lateral (
      select j.kind, coalesce(j.project_id, '') as pkey, j.run_at from jobs j
      where j.status = 'pending' and not j.parked and j.kind = k.kind
      order by coalesce(j.project_id, ''), j.run_at limit 1
    ) f
    where k.kind is not null and ($2::text[] is null or k.kind = any($2::text[])) and ($3::text[] is null or k.kind <> all($3::text[]))
    union all
    select f.* from groups g cross join lateral (
      select j.kind, coalesce(j.project_id, '') as pkey, j.run_at from jobs j
      where j.status = 'pending' and not j.parked and j.kind = g.kind and coalesce(j.project_id, '') > g.pkey
      order by coalesce(j.project_id, ''), j.run_at limit 1
    ) f
  ), running as (
    select coalesce(project_id, '') as pkey, count(*)::int as n from jobs
    where status = 'running' and ($2::text[] is null or kind = any($2::text[])) and ($3::text[] is null or kind <> all($3::text[]))
    group by 1
  ), projects as (
    select g.pkey, min(g.run_at) as first, coalesce(min(r.n), 0) as running
    from groups g left join running r on r.pkey = g.pkey
    where g.run_at <= now() group by g.pkey
  ), quota as (
    select pkey, running, least(greatest(1, $1 - (ahead - 1)), greatest($5 - running, $1 - $6)) as n
    from (
      select pkey, running,
        count(*) over (order by running range between unbounded preceding and current row) as ahead,
        row_number() over (order by running, first, pkey) as turn
      from projects
    ) p
    where turn <= $1
  ), due as materialized (
    select t.id, t.run_at, q.pkey, q.running from quota q
    join groups g on g.pkey = q.pkey and g.run_at <= now()
    cross join lateral (
      select j.id, j.run_at from jobs j
      where j.status = 'pending' and not j.parked and j.kind = g.kind and coalesce(j.project_id, '') = g.pkey and j.run_at <= now()
      order by j.run_at limit q.n
      for update skip locked
    ) t
    where q.n > 0
  ), ranked as (
    select id, level, row_number() over (order by level, run_at, id) as pos
    from (select id, run_at, running + row_number() over (partition by pkey order by run_at, id) as level from due) d
  ), claimed as (
    update jobs set status = 'running', attempts = jobs.attempts + 1, locked_until = now() + make_interval(secs => $4::float8), updated_at = now()
    where jobs.id = any(array(select id from ranked where pos <= $1 and (level <= $5 or pos <= $1 - $6))) and jobs.status = 'pending' and not jobs.parked
    returning ${columnList(getTableColumns(jobs))}
  )
  select claimed.*, p.promoted from (select count(*)::int as promoted from promoted) p left join claimed on true`);

/**
 * Jobs of one kind, as a JSON array of rows (id, project_id, kind, payload, run_at, max_attempts, dedupe_key); a
 * null run_at is now(), and a later one parks the job (claimDueJobs moves it back when due). A row whose dedupe key exists already is
 * skipped: the ids returned are the rows inserted.
 */
export const insertJobs = statement<{ id: string }, [rows: string]>(`
  insert into jobs (id, project_id, kind, payload, run_at, parked, max_attempts, dedupe_key)
  select id, project_id, kind, payload, coalesce(run_at, now()), coalesce(run_at > now(), false), max_attempts, dedupe_key
  from json_populate_recordset(null::jobs, $1::json)
  on conflict do nothing
  returning id`);

/**
 * The parked jobs of kind $1 with the dedupe keys $2, due now (endpoint-slots.ts). A job another wake or a claim
 * holds is skipped, not waited for: row locks taken in no set order by concurrent wakes deadlock.
 */
export const wakeParkedJobs = statement<{ key: string }, [jobKind: string, keys: string[]]>(`
  update jobs set run_at = now(), updated_at = now()
  where id in (
    select id from jobs where kind = $1 and dedupe_key = any($2::text[]) and status = 'pending' and parked
    for update skip locked
  )
  returning dedupe_key as key`);
