import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { owners, ownerSessions } from "@/lib/db/schema/owners";
import { newId } from "@/lib/ids";
import { announceOwnerSessionsEnded } from "@/lib/owners/owner-session-ends";

export const SESSION_TTL_S = 30 * 24 * 3600;

export async function startOwnerSession(db: Executor, opts: { ownerId: string; userAgent?: string | null; ip?: string | null }) {
  const [row] = await db
    .insert(ownerSessions)
    .values({
      id: newId("ses"),
      ownerId: opts.ownerId,
      userAgent: opts.userAgent?.slice(0, 300) ?? null,
      ip: opts.ip ?? null,
      expiresAt: new Date(Date.now() + SESSION_TTL_S * 1000),
    })
    .returning();
  return row;
}

/** The owner behind a session id, if the session is live. Checked on every request, so revocation is immediate. */
export async function liveSessionOwner(db: Executor, sessionId: string) {
  const [row] = await db
    .select({ owner: owners, session: ownerSessions })
    .from(ownerSessions)
    .innerJoin(owners, eq(owners.id, ownerSessions.ownerId))
    .where(and(eq(ownerSessions.id, sessionId), isNull(ownerSessions.revokedAt), gt(ownerSessions.expiresAt, new Date())));
  return row ?? null;
}

export const listOwnerSessions = (db: Executor, ownerId: string) =>
  db
    .select()
    .from(ownerSessions)
    .where(and(eq(ownerSessions.ownerId, ownerId), isNull(ownerSessions.revokedAt), gt(ownerSessions.expiresAt, new Date())))
    .orderBy(desc(ownerSessions.lastSeenAt));

export async function revokeOwnerSession(db: Executor, opts: { ownerId: string; sessionId: string }) {
  const rows = await db
    .update(ownerSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(ownerSessions.id, opts.sessionId), eq(ownerSessions.ownerId, opts.ownerId), isNull(ownerSessions.revokedAt)))
    .returning({ id: ownerSessions.id });
  if (rows.length === 1) announceOwnerSessionsEnded(db);
  return rows.length === 1;
}
