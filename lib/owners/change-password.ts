import { and, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { owners, ownerSessions } from "@/lib/db/schema/owners";
import { AppError, notFound } from "@/lib/errors";
import { chargeAuthAttempt } from "@/lib/http/auth-throttle";
import { hashPassword, verifyPassword } from "@/lib/owners/password";
import { announceOwnerSessionsEnded } from "@/lib/owners/owner-session-ends";

/** The ledger op of changing the owner's password (Settings). */
export const CHANGE_PASSWORD_OP = "owner.password.change";

/** As the setup page asks: at least 10 characters. The confirmation is the form's business, checked here too. */
export const changePasswordInput = z
  .object({
    current: z.string().min(1, "Enter your current password.").max(1000),
    next: z.string().min(10, "Use at least 10 characters.").max(1000),
    confirm: z.string().max(1000),
  })
  .strict()
  .refine((v) => v.next === v.confirm, { path: ["confirm"], message: "The two new passwords differ." });

/**
 * Sets a new password after checking the current one, and ends every other session of the owner in the same
 * transaction: a browser someone else signed in with is out at its next request (sessions are checked on each one).
 * The session that made the change stays signed in; a call without one (owner REST over HTTP Basic) ends them all.
 * Returns how many sessions were ended. `currentField` names the current password as the caller's form does.
 */
export async function changePassword(tx: Executor, opts: { ownerId: string; sessionId: string | null; current: string; next: string; currentField?: string }) {
  const [owner] = await tx.select().from(owners).where(eq(owners.id, opts.ownerId));
  if (!owner) throw notFound(`Owner ${opts.ownerId}`);
  // A wrong current password is a failed sign-in like any other, charged before argon2id runs (as at /login):
  // whoever held a session (a browser left open) guessed the password here as fast as argon2id ran. Per session, not
  // per owner: a stolen session's guesses then blocked the owner's own change, the way to throw that session out.
  const refund = chargeAuthAttempt(`password-change:${owner.id}:${opts.sessionId ?? "basic"}`);
  if (!(await verifyPassword(owner.passwordHash, opts.current))) {
    throw new AppError("validation_error", "The current password is wrong.", {
      fix: "Type the password you sign in with now.",
      details: [{ field: opts.currentField ?? "current", message: "The current password is wrong." }],
    });
  }
  refund();
  await tx
    .update(owners)
    .set({ passwordHash: await hashPassword(opts.next), updatedAt: new Date() })
    .where(eq(owners.id, owner.id));
  const ended = await tx
    .update(ownerSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(ownerSessions.ownerId, owner.id), opts.sessionId ? ne(ownerSessions.id, opts.sessionId) : undefined, isNull(ownerSessions.revokedAt)))
    .returning({ id: ownerSessions.id });
  if (ended.length > 0) announceOwnerSessionsEnded(tx);
  return { endedSessions: ended.length };
}
