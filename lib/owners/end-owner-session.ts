import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { revokeOwnerSession } from "@/lib/owners/owner-sessions";

/** The ledger op of ending a session, from Settings or by signing out. */
export const END_SESSION_OP = "owner.session.revoke";

/**
 * Revokes one of the acting owner's dashboard sessions. Sessions are the owner's, not a project's: the pipeline
 * records it in the ledger of the project the owner is looking at.
 */
export async function endOwnerSession(tx: Executor, opts: { actor: Actor; sessionId: string }) {
  if (!opts.actor.id) throw notFound(`Session ${opts.sessionId}`);
  const revoked = await revokeOwnerSession(tx, { ownerId: opts.actor.id, sessionId: opts.sessionId });
  if (!revoked) throw notFound(`Session ${opts.sessionId}`);
}
