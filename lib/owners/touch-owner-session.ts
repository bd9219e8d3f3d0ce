import { and, eq, lt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { ownerSessions } from "@/lib/db/schema/owners";

/** Keeps "last seen" on the sessions list meaningful; written at most once a minute per session. */
export async function touchOwnerSession(db: Executor, sessionId: string): Promise<void> {
  await db
    .update(ownerSessions)
    .set({ lastSeenAt: new Date() })
    .where(and(eq(ownerSessions.id, sessionId), lt(ownerSessions.lastSeenAt, new Date(Date.now() - 60_000))));
}
