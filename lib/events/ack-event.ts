import { and, eq, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { statement } from "@/lib/db/statement";
import { eventState, holderOf } from "@/lib/events/event-state";
import { leaseError } from "@/lib/events/lease-errors";
import { notifyEventChange } from "@/lib/events/events-channel";

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

/** The event and its open attempt close together; `heldBy` in text, with a null token matching any claim. */
const ack = statement<
  { id: string; source: string; type: string; finishedAt: Date },
  [eventId: string, projectId: string, holder: string, leaseToken: string | null, result: string | null]
>(`
  with acked as (
    update events set status = 'done', result = $5::jsonb, finished_at = now(), updated_at = now()
    where id = $1 and project_id = $2 and status = 'claimed' and claimed_by = $3 and ($4::text is null or lease_token = $4)
    returning id, source, type, finished_at
  ), closed as (
    update event_attempts set outcome = 'acked', finished_at = acked.finished_at
    from acked where event_attempts.event_id = acked.id and event_attempts.outcome is null
  )
  select * from acked`);

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
  const [row] = await ack(tx, opts.eventId, actor.projectId, holder, opts.leaseToken ?? null, result);
  if (row) {
    notifyEventChange(tx, { project: actor.projectId, id: row.id, source: row.source, type: row.type, status: "done" });
    return { id: row.id, finishedAt: row.finishedAt, repeated: false };
  }
  const state = await eventState(tx, actor.projectId, opts.eventId);
  const mine = state.claimedBy === holder && (!opts.leaseToken || state.leaseToken === opts.leaseToken);
  if (state.stored === "done" && mine) return { id: state.id, finishedAt: state.finishedAt!, repeated: true };
  throw leaseError(state, "ack");
}
