import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { eventNotFound, holderOf, sameKey } from "@/lib/events/event-state";
import { notifyEventChange } from "@/lib/events/events-channel";
import { claimEventRow, type ClaimedRow, type PriorState } from "@/lib/events/statements";

export const LEASE_MIN_S = 30;
export const LEASE_MAX_S = 3600;
export const LEASE_DEFAULT_S = 300;

/** Takes a claimable event for `leaseSeconds`, or says why it cannot. */
export async function claimEvent(tx: Executor, opts: { actor: Actor; eventId: string; leaseSeconds: number }): Promise<ClaimedRow & { leaseExpiresAt: Date }> {
  const { actor, eventId } = opts;
  const holder = holderOf(actor);
  const [row] = await claimEventRow(tx, eventId, actor.projectId, `lse_${randomBase62(24)}`, opts.leaseSeconds, holder, actor.agent, actor.keyId);
  if (!row) throw eventNotFound(eventId);
  if (row.leaseToken === null) throw whyNotClaimable(eventId, row, holder);
  const { priorStatus: _s, priorClaimedBy: _c, priorLeaseExpiresAt: _l, priorAvailableAt: _a, ...claimed } = row;
  notifyEventChange(tx, { project: actor.projectId, id: claimed.id, source: claimed.source, type: claimed.type, status: "claimed" });
  // A claimed row has its lease.
  return claimed as ClaimedRow & { leaseExpiresAt: Date };
}

function holdsIt(claimedBy: string | null, holder: string): string {
  if (claimedBy === holder) return "This key holds the lease, claimed in this session or by this agent identity: finish with inbox_ack or inbox_nack.";
  if (claimedBy && sameKey(claimedBy, holder)) {
    return "This key holds the lease, claimed in another MCP session or by another agent identity: finish there, or pass that claim's lease_token to inbox_ack or inbox_nack.";
  }
  return "Another consumer holds it: pick another event (inbox_list) or wait for its lease to expire.";
}

function whyNotClaimable(id: string, state: PriorState, holder: string): AppError {
  switch (state.priorStatus) {
    case "claimed":
      return new AppError("CONFLICT", `Event ${id} is already claimed until ${state.priorLeaseExpiresAt?.toISOString()}.`, {
        fix: holdsIt(state.priorClaimedBy, holder),
      });
    case "failed":
      return new AppError("CONFLICT", `Event ${id} failed and is retried after ${state.priorAvailableAt.toISOString()}.`, {
        fix: "Claim it after that time, or pick another event with inbox_list.",
      });
    case "done":
      return new AppError("CONFLICT", `Event ${id} is already done.`, { fix: "Pick another event with inbox_list." });
    case "dead":
      return new AppError("CONFLICT", `Event ${id} is dead: its attempts are used up.`, {
        fix: "An owner can requeue it from the dashboard's Events screen.",
      });
    default:
      // Claimable now but the update missed it: a concurrent claimer won the row first.
      return new AppError("CONFLICT", `Event ${id} was just claimed by another consumer.`, {
        fix: "Pick another event with inbox_list.",
      });
  }
}
