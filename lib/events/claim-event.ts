import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { statement, toDate } from "@/lib/db/statement";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { CLAIM_INLINE_BYTES, envelopeRow, envelopeSelect, type EnvelopeRow, type EnvelopeSqlRow } from "@/lib/events/event-envelope";
import { eventState, holderOf, type EventState } from "@/lib/events/event-state";
import { IS_CLAIMABLE } from "@/lib/events/event-status";
import { announceEventChange } from "@/lib/events/events-channel";

export const LEASE_MIN_S = 30;
export const LEASE_MAX_S = 3600;
export const LEASE_DEFAULT_S = 300;

type ClaimedRow = EnvelopeSqlRow & { lease_token: string; claimed_at: string };

/**
 * One statement takes the event, closes the attempt whose lease ran out (if any) and opens this one. The
 * sub-select's SKIP LOCKED decides between concurrent claimers: the first locks the row, every other skips it and
 * matches nothing, and once the winner commits the row is no longer claimable. The attempt statements see the
 * rows as they were before this statement, so closing the old attempt never touches the new one.
 */
const claim = statement<ClaimedRow, [eventId: string, projectId: string, leaseToken: string, leaseSeconds: number, holder: string, agent: string | null, keyId: string | null]>(`
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
  select * from claimed`);

/** Takes a claimable event for `leaseSeconds`, or says why it cannot. */
export async function claimEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; leaseSeconds: number },
): Promise<EnvelopeRow & { leaseToken: string; leaseExpiresAt: Date; claimedAt: Date }> {
  const { actor } = opts;
  const holder = holderOf(actor);
  const [row] = await claim(tx, opts.eventId, actor.projectId, `lse_${randomBase62(24)}`, opts.leaseSeconds, holder, actor.agent, actor.keyId);
  if (!row) throw whyNotClaimable(await eventState(tx, actor.projectId, opts.eventId), holder);
  const claimed = envelopeRow(row);
  announceEventChange({ project: actor.projectId, id: claimed.id, source: claimed.source, type: claimed.type, status: "claimed" });
  return { ...claimed, leaseToken: row.lease_token, leaseExpiresAt: claimed.leaseExpiresAt!, claimedAt: toDate(row.claimed_at) };
}

function whyNotClaimable(state: EventState, holder: string): AppError {
  const id = state.id;
  switch (state.status) {
    case "claimed":
      return new AppError("CONFLICT", `Event ${id} is already claimed until ${state.leaseExpiresAt?.toISOString()}.`, {
        fix:
          state.claimedBy === holder
            ? "This key holds the lease: finish with inbox_ack or inbox_nack."
            : "Another consumer holds it: pick another event (inbox_list) or wait for its lease to expire.",
      });
    case "failed":
      return new AppError("CONFLICT", `Event ${id} failed and is retried after ${state.availableAt.toISOString()}.`, {
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
