import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts, events } from "@/lib/db/schema/events";
import { eventState, holderOf } from "@/lib/events/event-state";
import { leaseError } from "@/lib/events/lease-errors";
import { announceEventChange } from "@/lib/events/events-channel";

/** Only the lease holder: the key that claimed, and the exact claim when the caller passes its lease token. */
export function heldBy(actor: Actor, eventId: string, leaseToken?: string): SQL {
  return and(
    eq(events.id, eventId),
    eq(events.projectId, actor.projectId),
    eq(events.status, "claimed"),
    eq(events.claimedBy, holderOf(actor)),
    leaseToken ? eq(events.leaseToken, leaseToken) : undefined,
  )!;
}

/**
 * Closes a claimed event. Repeating the ack is safe: an event this caller already acked answers the same again.
 * A holder whose lease ran out may still ack until someone else claims the event (ARCHITECTURE §5).
 */
export async function ackEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; result?: unknown; leaseToken?: string },
): Promise<{ id: string; finishedAt: Date; repeated: boolean }> {
  const { actor } = opts;
  const [row] = await tx
    .update(events)
    .set({ status: "done", result: opts.result ?? null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(heldBy(actor, opts.eventId, opts.leaseToken))
    .returning({ id: events.id, source: events.source, type: events.type, finishedAt: events.finishedAt });
  if (row) {
    await tx
      .update(eventAttempts)
      .set({ outcome: "acked", finishedAt: row.finishedAt })
      .where(and(eq(eventAttempts.eventId, row.id), isNull(eventAttempts.outcome)));
    announceEventChange({ project: actor.projectId, id: row.id, source: row.source, type: row.type, status: "done" });
    return { id: row.id, finishedAt: row.finishedAt!, repeated: false };
  }
  const state = await eventState(tx, actor.projectId, opts.eventId);
  const mine = state.claimedBy === holderOf(actor) && (!opts.leaseToken || state.leaseToken === opts.leaseToken);
  if (state.stored === "done" && mine) {
    const [done] = await tx.select({ finishedAt: events.finishedAt }).from(events).where(eq(events.id, state.id));
    return { id: state.id, finishedAt: done.finishedAt!, repeated: true };
  }
  throw leaseError(state, "ack");
}
