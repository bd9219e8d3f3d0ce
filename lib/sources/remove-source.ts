import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { forgetRecipients } from "@/lib/mail/inbound/recipient-cache";
import { sourceCache } from "@/lib/sources/find-source";

/**
 * The URL stops accepting at once, on every instance (their source caches are emptied on commit). Events
 * already received stay. The row stays too (soft delete), so the name can be reused and history keeps its source.
 */
export async function removeSource(tx: Executor, opts: { actor: Actor; name: string; sourceId?: string }) {
  const [row] = await tx
    .update(sources)
    .set({ removedAt: new Date(), updatedAt: new Date(), secretEnc: null, previousSecretEnc: null })
    .where(
      and(
        eq(sources.projectId, opts.actor.projectId),
        eq(sources.name, opts.name),
        isNull(sources.removedAt),
        // The dashboard names the row it showed: a source an agent re-made under that name since is another one.
        opts.sourceId ? eq(sources.id, opts.sourceId) : undefined,
      ),
    )
    .returning();
  if (!row) throw notFound(`Source ${opts.name}`, "List the project's sources with source_list.");
  sourceCache.invalidate(tx);
  // An email source's address stops receiving at RCPT too.
  if (row.type === "email") forgetRecipients(tx);
  return row;
}
