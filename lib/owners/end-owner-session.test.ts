import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ownerSessions } from "@/lib/db/schema/owners";
import { AppError } from "@/lib/errors";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { END_SESSION_OP, endOwnerSession } from "@/lib/owners/end-owner-session";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import type { Actor } from "@/lib/actor";

/** As Settings and sign-out do it: through the owner pipeline, which ledgers the revocation. */
const endAsOwner = async (actor: Actor, sessionId: string) =>
  ledgeredTransaction(await getDb(), { actor, op: END_SESSION_OP, input: { sessionId } }, (tx, entry) => {
    entry.subject = sessionId;
    return endOwnerSession(tx, { actor, sessionId });
  });
import { liveSessionOwner, listOwnerSessions, startOwnerSession } from "@/lib/owners/owner-sessions";
import { touchOwnerSession } from "@/lib/owners/touch-owner-session";
import { seedProject } from "@/lib/testing/seed";

describe("endOwnerSession", () => {
  it("revokes the session at once and ledgers it in the current project", async () => {
    const { actor, owner } = await seedProject();
    const db = await getDb();
    const session = await startOwnerSession(db, { ownerId: owner.id, userAgent: "test", ip: "127.0.0.1" });
    await endAsOwner(actor, session.id);
    expect(await liveSessionOwner(db, session.id)).toBeNull();
    expect((await listOwnerSessions(db, owner.id)).map((s) => s.id)).not.toContain(session.id);
    const { entries } = await queryLedger(db, { actor, op: "owner.session.revoke", limit: 5 });
    expect(entries.map((e) => e.subject)).toEqual([session.id]);
  });

  it("refuses an unknown, already revoked or other owner's session and writes nothing", async () => {
    const { actor, owner } = await seedProject();
    const db = await getDb();
    const session = await startOwnerSession(db, { ownerId: owner.id });
    await endAsOwner(actor, session.id);
    for (const [who, id] of [
      [actor, session.id],
      [actor, "ses_unknown"],
      [{ ...actor, id: "own_someone_else" }, session.id],
    ] as const) {
      const err = await endAsOwner(who, id).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("NOT_FOUND");
    }
    const { entries } = await queryLedger(db, { actor, op: "owner.session.revoke", limit: 5 });
    expect(entries).toHaveLength(1);
  });

  it("touch moves last_seen_at only when it is over a minute old", async () => {
    const { owner } = await seedProject();
    const db = await getDb();
    const session = await startOwnerSession(db, { ownerId: owner.id });
    await touchOwnerSession(db, session.id);
    const [same] = (await listOwnerSessions(db, owner.id)).filter((s) => s.id === session.id);
    expect(same.lastSeenAt.getTime()).toBe(session.lastSeenAt.getTime());
    const old = new Date(Date.now() - 3600_000);
    await db.update(ownerSessions).set({ lastSeenAt: old }).where(eq(ownerSessions.id, session.id));
    const touched = Date.now();
    await touchOwnerSession(db, session.id);
    const returned = Date.now();
    const [moved] = (await listOwnerSessions(db, owner.id)).filter((s) => s.id === session.id);
    // Moved to the moment of the touch, which lies between the two readings of the clock.
    expect(moved.lastSeenAt.getTime()).toBeGreaterThanOrEqual(touched);
    expect(moved.lastSeenAt.getTime()).toBeLessThanOrEqual(returned);
  });
});
