import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { appendEntry } from "@/lib/ledger/append-entry";
import { revokeOwnerSession } from "@/lib/owners/owner-sessions";

/**
 * Revokes one of the acting owner's dashboard sessions and records it in the current project's ledger (sessions
 * are the owner's, not a project's, so the project the owner is looking at gets the entry).
 */
export async function endOwnerSession(tx: Executor, opts: { actor: Actor; sessionId: string }) {
  if (!opts.actor.id) throw notFound(`Session ${opts.sessionId}`);
  const revoked = await revokeOwnerSession(tx, { ownerId: opts.actor.id, sessionId: opts.sessionId });
  if (!revoked) throw notFound(`Session ${opts.sessionId}`);
  await appendEntry(tx, { actor: opts.actor, op: "owner.session.revoke", subject: opts.sessionId });
}
