import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventState, holderOf, sameKey } from "@/lib/events/event-state";
import { leaseError } from "@/lib/events/lease-errors";
import { notifyEventChange } from "@/lib/events/events-channel";
import { ackEventRow } from "@/lib/events/statements";

/**
 * Closes a claimed event. Repeating the ack is safe: an event this caller already acked answers the same again.
 * A holder whose lease ran out may still ack until someone else claims the event (ARCHITECTURE §5). Without a lease
 * token, only the session or agent identity that claimed is the holder (holderOf); with one, the token decides.
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
  const mine = opts.leaseToken ? state.leaseToken === opts.leaseToken && sameKey(state.claimedBy ?? "", holder) : state.claimedBy === holder;
  if (state.stored === "done" && mine) return { id: state.id, finishedAt: state.finishedAt!, repeated: true };
  throw leaseError(state, "ack", holder, opts.leaseToken);
}
