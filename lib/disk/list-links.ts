import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskLinks } from "@/lib/db/schema/disk";

/** Active public links of the project, newest first (dashboard). */
export async function listActiveLinks(db: Executor, opts: { actor: Actor; limit?: number }) {
  return db
    .select({
      id: diskLinks.id,
      path: diskLinks.path,
      sizeBytes: diskLinks.sizeBytes,
      keyId: diskLinks.keyId,
      expiresAt: diskLinks.expiresAt,
      downloads: diskLinks.downloads,
      createdAt: diskLinks.createdAt,
    })
    .from(diskLinks)
    .where(and(eq(diskLinks.projectId, opts.actor.projectId), isNull(diskLinks.revokedAt), gt(diskLinks.expiresAt, new Date())))
    .orderBy(desc(diskLinks.createdAt))
    .limit(opts.limit ?? 100);
}
