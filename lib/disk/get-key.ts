import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { kvEntries, type KvEntry } from "@/lib/db/schema/disk";

/** The live entry at `key`, or null when absent or expired (an expired row is only waiting for the janitor). */
export async function findEntry(db: Executor, opts: { actor: Actor; key: string }): Promise<KvEntry | null> {
  const [row] = await db
    .select()
    .from(kvEntries)
    .where(and(eq(kvEntries.projectId, opts.actor.projectId), eq(kvEntries.key, opts.key)));
  if (!row || (row.expiresAt && row.expiresAt <= new Date())) return null;
  return row;
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
