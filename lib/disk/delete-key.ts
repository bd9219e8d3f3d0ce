import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { kvEntries } from "@/lib/db/schema/disk";
import { adjustUsage } from "@/lib/disk/usage";

/** kv_delete (and dropping a task state): `deleted` is false when the key was absent or had already expired. */
export async function deleteKey(db: Executor, opts: { actor: Actor; key: string; ifVersion?: number }) {
  const [row] = await db
    .delete(kvEntries)
    .where(
      and(
        eq(kvEntries.projectId, opts.actor.projectId),
        eq(kvEntries.key, opts.key),
        // The Disk screen deletes the value it showed: one an agent wrote since is not deleted unseen.
        opts.ifVersion === undefined ? undefined : eq(kvEntries.version, opts.ifVersion),
      ),
    )
    .returning({ sizeBytes: kvEntries.sizeBytes, expiresAt: kvEntries.expiresAt, version: kvEntries.version });
  if (!row && opts.ifVersion !== undefined) {
    const [now] = await db
      .select({ version: kvEntries.version })
      .from(kvEntries)
      .where(and(eq(kvEntries.projectId, opts.actor.projectId), eq(kvEntries.key, opts.key)));
    if (now) {
      throw new AppError(
        "CONFLICT",
        `Key ${opts.key} is at version ${now.version}, not ${opts.ifVersion}: it was written since you opened it, and nothing was deleted.`,
        {
          fix: "Reload the key to see its value now, then delete it if you still mean to.",
        },
      );
    }
  }
  if (!row) return { deleted: false };
  // Its version is retired with it: written again, the key starts above it (an old if_version cannot match).
  await adjustUsage(db, opts.actor.projectId, { keys: -1, bytes: -row.sizeBytes, retiredVersion: row.version });
  return { deleted: !row.expiresAt || row.expiresAt > new Date() };
}
