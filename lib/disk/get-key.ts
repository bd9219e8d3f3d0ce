import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { KvEntry } from "@/lib/db/schema/disk";
import { statement, toDate } from "@/lib/db/statement";

/** Every kv_get and state_load: one prepared text, not a builder query (the read path's largest CPU cost). */
const selectEntry = statement<
  { value: string; size_bytes: number; version: number; note: string | null; expires_at: string | null; created_at: string; updated_at: string },
  [projectId: string, key: string]
>(`select value, size_bytes, version, note, expires_at, created_at, updated_at from kv_entries where project_id = $1 and key = $2`);

/** The live entry at `key`, or null when absent or expired (an expired row is only waiting for the janitor). */
export async function findEntry(db: Executor, opts: { actor: Actor; key: string }): Promise<KvEntry | null> {
  const [row] = await selectEntry(db, opts.actor.projectId, opts.key);
  const expiresAt = row ? toDate(row.expires_at) : null;
  if (!row || (expiresAt && expiresAt <= new Date())) return null;
  return {
    projectId: opts.actor.projectId,
    key: opts.key,
    value: row.value,
    sizeBytes: row.size_bytes,
    version: row.version,
    note: row.note,
    expiresAt,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** kv_get: the value exactly as saved, or nulls when the key does not exist or has expired. */
export async function getKey(db: Executor, opts: { actor: Actor; key: string }) {
  const row = await findEntry(db, opts);
  return {
    key: opts.key,
    value: row ? (JSON.parse(row.value) as unknown) : null,
    expires_at: row?.expiresAt?.toISOString() ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
    version: row?.version ?? null,
  };
}
