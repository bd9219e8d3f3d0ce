import { and, eq, gt, isNull, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { diskLinks } from "@/lib/db/schema/disk";

/**
 * Active public links of the project, newest first, a page of `limit` after `after` (dashboard and owner REST): an
 * agent may make links faster than anyone revokes them, and a leaked one must be reachable however many there are.
 */
export async function listActiveLinks(db: Executor, opts: { actor: Actor; limit: number; after: PageKey | null }) {
  const where: SQL[] = [eq(diskLinks.projectId, opts.actor.projectId), isNull(diskLinks.revokedAt), gt(diskLinks.expiresAt, new Date())];
  if (opts.after) where.push(keysetAfter(diskLinks.createdAt, diskLinks.id, opts.after, false));
  return db
    .select({
      id: diskLinks.id,
      path: diskLinks.path,
      sizeBytes: diskLinks.sizeBytes,
      keyId: diskLinks.keyId,
      expiresAt: diskLinks.expiresAt,
      downloads: diskLinks.downloads,
      createdAt: diskLinks.createdAt,
      pageAt: keysetAt(diskLinks.createdAt),
    })
    .from(diskLinks)
    .where(and(...where))
    .orderBy(...keysetOrder(diskLinks.createdAt, diskLinks.id, false))
    .limit(opts.limit);
}
