import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mcpSessions } from "@/lib/db/schema/keys";
import { oauthGrants, oauthTokens } from "@/lib/db/schema/oauth";
import { grantTokenCache } from "@/lib/oauth/token-cache";

/**
 * Ends a grant of a project: its tokens go, its MCP sessions end, and every instance's token cache is emptied on
 * commit, so the next request with any of its tokens is refused (as revoking a key is). Returns the grant, or
 * undefined when there was no live grant of that id in the project.
 */
export async function revokeGrant(tx: Executor, opts: { projectId: string; grantId: string }) {
  const [grant] = await tx
    .update(oauthGrants)
    .set({ revokedAt: new Date() })
    .where(and(eq(oauthGrants.id, opts.grantId), eq(oauthGrants.projectId, opts.projectId), isNull(oauthGrants.revokedAt)))
    .returning();
  if (!grant) return undefined;
  await tx.delete(oauthTokens).where(eq(oauthTokens.grantId, grant.id));
  await tx
    .update(mcpSessions)
    .set({ endedAt: new Date() })
    .where(and(eq(mcpSessions.projectId, grant.projectId), eq(mcpSessions.grantId, grant.id), isNull(mcpSessions.endedAt)));
  grantTokenCache.invalidate(tx);
  return grant;
}
