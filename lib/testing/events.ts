import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { emitEvent } from "@/lib/events/emit-event";
import type { Actor } from "@/lib/actor";
import { addSource, type AddSourceInput } from "@/lib/sources/add-source";
import { listEvents, type EventFilter } from "@/lib/events/list-events";

/** A source added the way the dashboard does it; returns its view (with the webhook URL). */
export async function seedSource(actor: Actor, input: Partial<AddSourceInput> & Pick<AddSourceInput, "name">) {
  const db = await getDb();
  return db.transaction((tx) => addSource(tx, { actor, type: "webhook", ...input }));
}

/** Every event of the project matching the filter, oldest first (all statuses unless one is given). */
export async function eventsOf(actor: Pick<Actor, "projectId">, filter: EventFilter = {}) {
  return (await listEvents(await getDb(), { actor, limit: 1000, inlineLimit: 1 << 30, ...filter })).events;
}

/** Moves an event's lease or retry delay to `seconds` from now (default: just past), as if time had gone by. */
export async function timeTravel(eventId: string, what: "lease" | "retry", seconds = -1) {
  const db = await getDb();
  const at = sql`now() + make_interval(secs => ${seconds})`;
  await db
    .update(events)
    .set(what === "lease" ? { leaseExpiresAt: at } : { availableAt: at })
    .where(eq(events.id, eventId));
}

/** Brynth-side events, as the approvals and mail modules will write them. */
export async function seedEvents(projectId: string, items: { type: string; payload?: unknown; source?: string }[]) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const i of items) ids.push((await emitEvent(tx, { projectId, type: i.type, payload: i.payload ?? {}, source: i.source })).id);
    return ids;
  });
}
