import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { EventStatus } from "@/lib/db/schema/events";
import { statement } from "@/lib/db/statement";
import { notFound } from "@/lib/errors";
import { EFFECTIVE_STATUS } from "@/lib/events/event-status";

/** Who holds leases: the key that claimed (owners and the system act under their own ids). */
export const holderOf = (actor: Actor) => actor.keyId ?? actor.id ?? "system";

const selectState = statement<
  {
    id: string;
    source: string;
    type: string;
    stored: EventStatus;
    status: EventStatus;
    claimedBy: string | null;
    leaseToken: string | null;
    leaseExpiresAt: Date | null;
    availableAt: Date;
    finishedAt: Date | null;
  },
  [eventId: string, projectId: string]
>(`select id, source, type, status as stored, ${EFFECTIVE_STATUS} as status, claimed_by, lease_token,
    lease_expires_at, available_at, finished_at
  from events where id = $1 and project_id = $2`);

export const eventNotFound = (eventId: string) => notFound(`Event ${eventId}`, "Check the id; inbox_list shows the events of this project.");

/** An event's lease state, read after a conditional update matched nothing, to say why. */
export async function eventState(db: Executor, projectId: string, eventId: string) {
  const [row] = await selectState(db, eventId, projectId);
  if (!row) throw eventNotFound(eventId);
  return row;
}
export type EventState = Awaited<ReturnType<typeof eventState>>;
