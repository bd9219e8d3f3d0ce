import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { selectEventState } from "@/lib/events/statements";

/** Who holds leases: the key that claimed (owners and the system act under their own ids). */
export const holderOf = (actor: Actor) => actor.keyId ?? actor.id ?? "system";

export const eventNotFound = (eventId: string) => notFound(`Event ${eventId}`, "Check the id; inbox_list shows the events of this project.");

/** An event's lease state, read after a conditional update matched nothing, to say why. */
export async function eventState(db: Executor, projectId: string, eventId: string) {
  const [row] = await selectEventState(db, eventId, projectId);
  if (!row) throw eventNotFound(eventId);
  return row;
}
export type EventState = Awaited<ReturnType<typeof eventState>>;
