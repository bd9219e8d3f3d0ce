import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { kvEntries } from "@/lib/db/schema/disk";
import { adjustUsage } from "@/lib/disk/usage";

/** kv_delete (and dropping a task state): `deleted` is false when the key was absent or had already expired. */
export async function deleteKey(db: Executor, opts: { actor: Actor; key: string }) {
  const [row] = await db
    .delete(kvEntries)
    .where(and(eq(kvEntries.projectId, opts.actor.projectId), eq(kvEntries.key, opts.key)))
    .returning({ sizeBytes: kvEntries.sizeBytes, expiresAt: kvEntries.expiresAt, version: kvEntries.version });
  if (!row) return { deleted: false };
  // Its version is retired with it: written again, the key starts above it (an old if_version cannot match).
  await adjustUsage(db, opts.actor.projectId, { keys: -1, bytes: -row.sizeBytes, retiredVersion: row.version });
  return { deleted: !row.expiresAt || row.expiresAt > new Date() };
}
