import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
import type { EventStatus } from "@/lib/db/schema/events";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { CLAIM_INLINE_BYTES, envelopeSelect, type EnvelopeRow } from "@/lib/events/event-envelope";
import { eventNotFound, holderOf } from "@/lib/events/event-state";
import { EFFECTIVE_STATUS, IS_CLAIMABLE } from "@/lib/events/event-status";
import { notifyEventChange } from "@/lib/events/events-channel";

export const LEASE_MIN_S = 30;
export const LEASE_MAX_S = 3600;
export const LEASE_DEFAULT_S = 300;

type ClaimedRow = EnvelopeRow & { leaseToken: string; claimedAt: Date };
/** The event as the claim found it, to say why it could not be taken. */
type PriorState = { priorStatus: EventStatus; priorClaimedBy: string | null; priorLeaseExpiresAt: Date | null; priorAvailableAt: Date };
type ClaimResultRow = PriorState & ({ [K in keyof ClaimedRow]: null } | ClaimedRow);

/**
 * One statement takes the event, closes the attempt whose lease ran out (if any) and opens this one. The
 * sub-select's SKIP LOCKED decides between concurrent claimers: the first locks the row, every other skips it and
 * matches nothing, and once the winner commits the row is no longer claimable. The attempt statements see the
 * rows as they were before this statement, so closing the old attempt never touches the new one.
 *
 * The event's state as the statement found it comes along, so a claim that loses (a race, a taken lease) says why
 * without a second round trip; no row at all means no such event in this project.
 */
const claim = statement<ClaimResultRow, [eventId: string, projectId: string, leaseToken: string, leaseSeconds: number, holder: string, agent: string | null, keyId: string | null]>(`
  with claimed as (
    update events set status = 'claimed', lease_token = $3, lease_expires_at = now() + make_interval(secs => $4),
      claimed_by = $5, claimed_agent = $6, claimed_at = now(), attempts = events.attempts + 1, updated_at = now()
    where events.id = (select id from events where id = $1 and project_id = $2 and ${IS_CLAIMABLE} for update skip locked)
    returning ${envelopeSelect(CLAIM_INLINE_BYTES)}, events.lease_token, events.claimed_at
  ), expired as (
    update event_attempts set outcome = 'expired', finished_at = claimed.claimed_at
    from claimed where claimed.attempts > 1 and event_attempts.event_id = claimed.id and event_attempts.outcome is null
  ), opened as (
    insert into event_attempts (project_id, event_id, attempt, key_id, agent, claimed_at, lease_expires_at)
    select $2, id, attempts, $7, $6, claimed_at, lease_expires_at from claimed
  )
  select claimed.*, prior.* from (
    select ${EFFECTIVE_STATUS} as prior_status, claimed_by as prior_claimed_by, lease_expires_at as prior_lease_expires_at,
      available_at as prior_available_at
    from events where id = $1 and project_id = $2
  ) prior left join claimed on true`);

/** Takes a claimable event for `leaseSeconds`, or says why it cannot. */
export async function claimEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; leaseSeconds: number },
): Promise<ClaimedRow & { leaseExpiresAt: Date }> {
  const { actor, eventId } = opts;
  const holder = holderOf(actor);
  const [row] = await claim(tx, eventId, actor.projectId, `lse_${randomBase62(24)}`, opts.leaseSeconds, holder, actor.agent, actor.keyId);
  if (!row) throw eventNotFound(eventId);
  if (row.leaseToken === null) throw whyNotClaimable(eventId, row, holder);
  const { priorStatus: _s, priorClaimedBy: _c, priorLeaseExpiresAt: _l, priorAvailableAt: _a, ...claimed } = row;
  notifyEventChange(tx, { project: actor.projectId, id: claimed.id, source: claimed.source, type: claimed.type, status: "claimed" });
  // A claimed row has its lease.
  return claimed as ClaimedRow & { leaseExpiresAt: Date };
}

function whyNotClaimable(id: string, state: PriorState, holder: string): AppError {
  switch (state.priorStatus) {
    case "claimed":
      return new AppError("CONFLICT", `Event ${id} is already claimed until ${state.priorLeaseExpiresAt?.toISOString()}.`, {
        fix:
          state.priorClaimedBy === holder
            ? "This key holds the lease: finish with inbox_ack or inbox_nack."
            : "Another consumer holds it: pick another event (inbox_list) or wait for its lease to expire.",
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
