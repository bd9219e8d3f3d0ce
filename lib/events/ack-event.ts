import { and, eq, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { eventState, holderOf } from "@/lib/events/event-state";
import { leaseError } from "@/lib/events/lease-errors";
import { notifyEventChange } from "@/lib/events/events-channel";
import { ackEventRow } from "@/lib/events/statements";

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
  const holder = holderOf(actor);
  const result = opts.result == null ? null : JSON.stringify(opts.result);
  const [row] = await ackEventRow(tx, opts.eventId, actor.projectId, holder, opts.leaseToken ?? null, result);
  if (row) {
    notifyEventChange(tx, { project: actor.projectId, id: row.id, source: row.source, type: row.type, status: "done" });
    return { id: row.id, finishedAt: row.finishedAt, repeated: false };
  }
  const state = await eventState(tx, actor.projectId, opts.eventId);
  const mine = state.claimedBy === holder && (!opts.leaseToken || state.leaseToken === opts.leaseToken);
  if (state.stored === "done" && mine) return { id: state.id, finishedAt: state.finishedAt!, repeated: true };
  throw leaseError(state, "ack");
}
