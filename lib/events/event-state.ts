import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { effectiveStatus } from "@/lib/events/event-status";

/** Who holds leases: the key that claimed (owners and the system act under their own ids). */
export const holderOf = (actor: Actor) => actor.keyId ?? actor.id ?? "system";

/** An event's lease state, read after a conditional update matched nothing, to say why. */
export async function eventState(db: Executor, projectId: string, eventId: string) {
  const [row] = await db
    .select({
      id: events.id,
      source: events.source,
      type: events.type,
      stored: events.status,
      status: effectiveStatus,
      claimedBy: events.claimedBy,
      leaseToken: events.leaseToken,
      leaseExpiresAt: events.leaseExpiresAt,
      availableAt: events.availableAt,
      attempts: events.attempts,
    })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.projectId, projectId)));
  if (!row) throw notFound(`Event ${eventId}`, "Check the id; inbox_list shows the events of this project.");
  return row;
}
export type EventState = Awaited<ReturnType<typeof eventState>>;
