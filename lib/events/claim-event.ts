import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts, events } from "@/lib/db/schema/events";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { CLAIM_INLINE_BYTES, envelopeColumns, type EnvelopeRow } from "@/lib/events/event-envelope";
import { eventState, holderOf, type EventState } from "@/lib/events/event-state";
import { isClaimable } from "@/lib/events/event-status";
import { announceEventChange } from "@/lib/events/events-channel";

export const LEASE_MIN_S = 30;
export const LEASE_MAX_S = 3600;
export const LEASE_DEFAULT_S = 300;

/**
 * Takes a claimable event for `leaseSeconds`. One UPDATE decides: the row is locked by the first claimer, every
 * concurrent claim skips it and fails, and once the winner commits the row is no longer claimable.
 */
export async function claimEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; leaseSeconds: number },
): Promise<EnvelopeRow & { leaseToken: string; leaseExpiresAt: Date; claimedAt: Date }> {
  const { actor } = opts;
  const leaseToken = `lse_${randomBase62(24)}`;
  const [row] = await tx
    .update(events)
    .set({
      status: "claimed",
      leaseToken,
      leaseExpiresAt: sql`now() + make_interval(secs => ${opts.leaseSeconds})`,
      claimedBy: holderOf(actor),
      claimedAgent: actor.agent,
      claimedAt: sql`now()`,
      attempts: sql`${events.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      // SKIP LOCKED: a concurrent claimer that holds the row makes this one fail at once instead of queueing
      // behind it, and a row that is claimable and not locked can be taken by this statement only.
      sql`${events.id} = (select ${events.id} from ${events} where ${and(
        eq(events.id, opts.eventId),
        eq(events.projectId, actor.projectId),
        isClaimable,
      )} for update skip locked)`,
    )
    .returning({ ...envelopeColumns(CLAIM_INLINE_BYTES), leaseToken: events.leaseToken, claimedAt: events.claimedAt });
  if (!row) throw whyNotClaimable(await eventState(tx, actor.projectId, opts.eventId), holderOf(actor));
  const claimed = row as EnvelopeRow & { leaseToken: string; claimedAt: Date };
  if (claimed.attempts > 1) {
    // The previous holder's lease ran out without an ack or nack.
    await tx
      .update(eventAttempts)
      .set({ outcome: "expired", finishedAt: claimed.claimedAt })
      .where(and(eq(eventAttempts.eventId, claimed.id), isNull(eventAttempts.outcome)));
  }
  await tx.insert(eventAttempts).values({
    projectId: actor.projectId,
    eventId: claimed.id,
    attempt: claimed.attempts,
    keyId: actor.keyId,
    agent: actor.agent,
    claimedAt: claimed.claimedAt,
    leaseExpiresAt: claimed.leaseExpiresAt!,
  });
  announceEventChange({ project: actor.projectId, id: claimed.id, source: claimed.source, type: claimed.type, status: "claimed" });
  return { ...claimed, leaseExpiresAt: claimed.leaseExpiresAt! };
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
