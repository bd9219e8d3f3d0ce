import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { query } from "@/lib/db/statement";
import type { diskUsage } from "@/lib/db/schema/disk";
import { AppError } from "@/lib/errors";
import { MAX_BYTES, MAX_KEYS, MONTHLY_DOWNLOAD_BYTES } from "@/lib/disk/limits";
import { at } from "@/lib/disk/sql-time";

export interface Usage {
  keys: number;
  bytes: number;
  downloadMonth: string;
  downloadBytes: number;
}

/**
 * Runs a guarded UPDATE of the usage row; if it matched nothing, creates the row and runs it once more, whose answer
 * is then final. Whether this INSERT or a concurrent one creates the row does not matter: ON CONFLICT waits for the
 * other writer to commit, and the second UPDATE (a new snapshot) sees its row. Taking "someone else created it" as
 * the guard's refusal turned concurrent first writes to a fresh project into QUOTA_EXCEEDED.
 */
async function guardedUpdate(db: Executor, projectId: string, update: () => Promise<unknown[]>): Promise<boolean> {
  if ((await update()).length) return true;
  await query(db, sql`insert into disk_usage (project_id) values (${projectId}) on conflict do nothing`);
  return (await update()).length > 0;
}

/**
 * Takes the project's usage row (creating it if need be) until the transaction ends: upload starts hold it from
 * their checks to their commit, and whoever drops a path's uploads takes it first, so an upload started before a
 * write commits is visible to that write (and dropped) rather than left open to overwrite it. The INSERT waits for
 * a concurrent first writer's commit, which a SELECT … FOR UPDATE alone would not see.
 */
export async function lockUsage(db: Executor, projectId: string): Promise<void> {
  await query(db, sql`insert into disk_usage (project_id) values (${projectId}) on conflict do nothing`);
  await query(db, sql`select 1 from disk_usage where project_id = ${projectId} for update`);
}

export interface UsageDelta {
  keys?: number;
  bytes?: number;
  /** The highest version of the keys deleted: the project's floor, which new keys start above (write-entry.ts). */
  retiredVersion?: number;
}

/**
 * Adds deltas to the project's usage in one guarded UPDATE: it applies only if the result stays within the quota
 * (decreases always apply). The row stays locked until the caller's transaction ends, so concurrent writers queue
 * here and none can push the project past 10,000 keys or 1 GB. False when the quota would be exceeded.
 */
export async function adjustUsage(db: Executor, projectId: string, d: UsageDelta): Promise<boolean> {
  const dk = d.keys ?? 0;
  const dbytes = d.bytes ?? 0;
  if (dk === 0 && dbytes === 0 && d.retiredVersion === undefined) return true;
  return guardedUpdate(db, projectId, () =>
    query<{ keys: number }>(
      db,
      sql`update disk_usage set keys = keys + ${dk}, bytes = bytes + ${dbytes},
            kv_version_floor = greatest(kv_version_floor, ${d.retiredVersion ?? 0}::int)
          where project_id = ${projectId}
            and (${dk}::int <= 0 or keys + ${dk}::int <= ${MAX_KEYS}::int)
            and (${dbytes}::bigint <= 0 or bytes + ${dbytes}::bigint <= ${MAX_BYTES}::bigint)
          returning keys`,
    ),
  );
}

/** adjustUsage, or QUOTA_EXCEEDED after expired keys (which still hold space until swept) have been purged. */
export async function reserveUsage(db: Executor, projectId: string, d: { keys?: number; bytes?: number }, keepKey?: string): Promise<void> {
  if (await adjustUsage(db, projectId, d)) return;
  if ((await purgeExpiredKeys(db, projectId, keepKey)) > 0 && (await adjustUsage(db, projectId, d))) return;
  const u = await getUsage(db, projectId);
  const overKeys = (d.keys ?? 0) > 0 && u.keys + (d.keys ?? 0) > MAX_KEYS;
  throw new AppError(
    "QUOTA_EXCEEDED",
    overKeys
      ? `The project disk holds ${u.keys} of ${MAX_KEYS.toLocaleString("en")} keys.`
      : `The project disk would exceed 1 GB (${u.bytes.toLocaleString("en")} of ${MAX_BYTES.toLocaleString("en")} bytes used).`,
    { fix: "Delete keys or files you no longer need (kv_delete, file_delete), or give keys a ttl_seconds." },
  );
}

/**
 * Deletes up to 1,000 expired keys of a project and frees their usage. Rows locked by other transactions are
 * skipped, so this never waits on (or deadlocks with) a writer of the same key.
 */
export async function purgeExpiredKeys(db: Executor, projectId: string, keepKey?: string): Promise<number> {
  const [gone] = await query<{ n: number; b: number; v: number }>(
    db,
    sql`with gone as (
          delete from kv_entries where project_id = ${projectId} and key in (
            select key from kv_entries
            where project_id = ${projectId} and expires_at <= ${at()} and key <> ${keepKey ?? ""}
            limit 1000 for update skip locked)
          returning size_bytes, version)
        select count(*)::int as n, coalesce(sum(size_bytes), 0)::bigint as b, coalesce(max(version), 0)::int as v from gone`,
  );
  const n = gone?.n ?? 0;
  if (n > 0) await adjustUsage(db, projectId, { keys: -n, bytes: -gone.b, retiredVersion: gone.v });
  return n;
}

export const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** Counts a download toward the project's 5 GB a month; false (nothing counted) when it would go over. */
export async function countDownload(db: Executor, projectId: string, bytes: number): Promise<boolean> {
  const month = monthOf(new Date());
  return guardedUpdate(db, projectId, () =>
    query<{ b: number }>(
      db,
      sql`update disk_usage
          set download_bytes = (case when download_month = ${month} then download_bytes else 0 end) + ${bytes}::bigint,
              download_month = ${month}
          where project_id = ${projectId}
            and (case when download_month = ${month} then download_bytes else 0 end) + ${bytes}::bigint <= ${MONTHLY_DOWNLOAD_BYTES}::bigint
          returning download_bytes as b`,
    ),
  );
}

export async function getUsage(db: Executor, projectId: string): Promise<Usage> {
  const [row] = await query<Pick<typeof diskUsage.$inferSelect, "keys" | "bytes" | "downloadMonth" | "downloadBytes">>(
    db,
    sql`select keys, bytes, download_month, download_bytes from disk_usage where project_id = ${projectId}`,
  );
  const month = monthOf(new Date());
  return {
    keys: row?.keys ?? 0,
    bytes: row?.bytes ?? 0,
    downloadMonth: month,
    downloadBytes: row && row.downloadMonth === month ? row.downloadBytes : 0,
  };
}
