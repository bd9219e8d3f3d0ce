import type { Actor } from "@/lib/actor";
import type { Db, Executor } from "@/lib/db/client";
import { coalesce } from "@/lib/db/coalesce";
import type { KvEntry } from "@/lib/db/schema/disk";
import { isTransaction } from "@/lib/db/transaction";
import { selectEntries, selectEntry, type EntryRow } from "@/lib/disk/statements";

async function selectMany(db: Db, pairs: [projectId: string, key: string][]): Promise<(EntryRow | undefined)[]> {
  const found: (EntryRow | undefined)[] = new Array(pairs.length);
  for (const row of await selectEntries(db, JSON.stringify(pairs))) found[row.n - 1] = row;
  return found;
}

/**
 * kv_get and state_load run outside a transaction, and under load most of a point read's cost is its round trip:
 * concurrent reads share one statement (coalesce.ts).
 */
const readCoalesced = coalesce("kv reads", 64, selectMany);

/** The live entry at `key`, or null when absent or expired (an expired row is only waiting for the janitor). */
export async function findEntry(db: Executor, opts: { actor: Actor; key: string }): Promise<KvEntry | null> {
  // Outside a transaction `db` is the process's pool, which the shared statement uses as well.
  const row = isTransaction(db) ? (await selectEntry(db, opts.actor.projectId, opts.key))[0] : await readCoalesced([opts.actor.projectId, opts.key]);
  if (!row || (row.expiresAt && row.expiresAt <= new Date())) return null;
  return {
    projectId: opts.actor.projectId,
    key: opts.key,
    value: row.value,
    sizeBytes: row.sizeBytes,
    version: row.version,
    note: row.note,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
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
