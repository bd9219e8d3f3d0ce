import { and, eq, isNull } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { apiKeys, mcpSessions } from "@/lib/db/schema/keys";
import { notFound } from "@/lib/errors";
import { keyCache } from "@/lib/keys/auth-cache";

/** Takes effect on the next request on every instance (their auth caches are emptied on commit); its MCP sessions end now. */
export async function revokeKey(tx: Executor, opts: { actor: Actor; keyId: string }) {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(apiKeys.id, opts.keyId), eq(apiKeys.projectId, opts.actor.projectId), isNull(apiKeys.revokedAt)))
    .returning();
  if (!row) throw notFound(`Key ${opts.keyId}`);
  await tx
    .update(mcpSessions)
    .set({ endedAt: new Date() })
    .where(and(eq(mcpSessions.projectId, row.projectId), eq(mcpSessions.keyId, row.id), isNull(mcpSessions.endedAt)));
  keyCache.invalidate(tx);
  return row;
}
