import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { diskLinks } from "@/lib/db/schema/disk";
import { notFound } from "@/lib/errors";

/** Stops a public link at once (dashboard). */
export async function revokeLink(db: Executor, opts: { actor: Actor; linkId: string }) {
  const [row] = await db
    .update(diskLinks)
    .set({ revokedAt: new Date() })
    .where(and(eq(diskLinks.id, opts.linkId), eq(diskLinks.projectId, opts.actor.projectId), isNull(diskLinks.revokedAt)))
    .returning({ id: diskLinks.id });
  if (!row) throw notFound(`Active link ${opts.linkId}`);
  return { revoked: true };
}
