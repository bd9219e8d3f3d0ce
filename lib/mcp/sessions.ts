import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mcpSessions, type McpSession } from "@/lib/db/schema/keys";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { type McpPrincipal, sessionPrincipal } from "@/lib/mcp/principal";

/** last_seen_at is written at most once an hour per session, off the request's critical path. */
const LAST_SEEN_EVERY_MS = 3_600_000;

/** Session ids are visible ASCII (spec) and unguessable; they never authenticate — the credential does, every time. */
export const newSessionId = () => randomBase62(32);

/**
 * The session row (already loaded with the credential, or read here), checked: live, and started by this very
 * principal (the same key, grant, or owner on the same project). Another principal's session is answered exactly as
 * an unknown one, so a caller cannot learn which session ids exist. A session in use is marked seen (hourly), so the
 * purge of idle ones (purge-sessions.ts) never takes it.
 */
export async function loadSession(db: Executor, sessionId: string, principal: McpPrincipal): Promise<McpSession> {
  const row = principal.session ?? (await db.select().from(mcpSessions).where(eq(mcpSessions.id, sessionId)))[0];
  const own = sessionPrincipal(principal);
  if (
    !row ||
    row.id !== sessionId ||
    row.endedAt ||
    row.projectId !== principal.projectId ||
    row.keyId !== own.keyId ||
    row.grantId !== own.grantId ||
    row.ownerId !== own.ownerId
  ) {
    throw new AppError("not_found", "Unknown or ended MCP session.", {
      fix: "Start a new session: send initialize without Mcp-Session-Id.",
    });
  }
  const now = Date.now();
  if (now - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
    // The row may be the auth cache's: marking it there keeps this instance from writing again within the hour.
    row.lastSeenAt = new Date(now);
    db.update(mcpSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(mcpSessions.id, row.id))
      .catch((err) => console.error("[brynth] mcp_sessions.last_seen_at update failed", err));
  }
  return row;
}
