import { lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mcpSessions } from "@/lib/db/schema/keys";

/**
 * MCP sessions are deleted a day after they end (DELETE, or their key or grant was revoked) and after a week unused:
 * a client that comes back later gets 404 for its old id and initializes again, as the MCP spec has it. Without this,
 * a client that opens a session per call would grow the table forever.
 */
export async function purgeMcpSessions(db: Executor, opts: { idleDays?: number; endedDays?: number } = {}): Promise<void> {
  const idle = sql`now() - make_interval(days => ${opts.idleDays ?? 7})`;
  const ended = sql`now() - make_interval(days => ${opts.endedDays ?? 1})`;
  await db.delete(mcpSessions).where(or(lt(mcpSessions.lastSeenAt, idle), lt(mcpSessions.endedAt, ended)));
}
