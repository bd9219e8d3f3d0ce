import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mcpSessions, type McpSession } from "@/lib/db/schema/keys";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";

/** Session ids are visible ASCII (spec) and unguessable; they never authenticate — the key does, every time. */
export const newSessionId = () => randomBase62(32);

/**
 * The session row (already loaded with the key, or read here), checked: live and started with this key. Another
 * key's session is answered exactly as an unknown one, so a key cannot learn which session ids exist.
 */
export async function loadSession(db: Executor, sessionId: string, keyId: string, preloaded?: McpSession | null): Promise<McpSession> {
  const row = preloaded ?? (await db.select().from(mcpSessions).where(eq(mcpSessions.id, sessionId)))[0];
  if (!row || row.endedAt || row.keyId !== keyId) {
    throw new AppError("not_found", "Unknown or ended MCP session.", {
      fix: "Start a new session: send initialize without Mcp-Session-Id.",
    });
  }
  return row;
}
