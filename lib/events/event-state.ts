import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { selectEventState } from "@/lib/events/statements";

/**
 * Who holds a lease, as `claimed_by` records it: the key that claimed, and where — its MCP session, else its agent
 * identity (`X-Brynth-Agent` over REST, the key's name without one). Two workers sharing a key are told apart this
 * way, so a token-less ack or nack settles only a claim its own session or agent made; the lease token alone is the
 * exact fence. Owners and the system act under their own ids.
 */
export function holderOf(actor: Actor): string {
  const id = actor.keyId ?? actor.id ?? "system";
  if (actor.type !== "key") return id;
  if (actor.sessionId) return `${id} mcp:${actor.sessionId}`;
  return actor.agent ? `${id} agent:${actor.agent}` : id;
}

/** Whether two holders are the same key (key ids hold no space; what follows one names the session or agent). */
export const sameKey = (a: string, b: string) => a.split(" ", 1)[0] === b.split(" ", 1)[0];

export const eventNotFound = (eventId: string) => notFound(`Event ${eventId}`, "Check the id; inbox_list shows the events of this project.");

/** An event's lease state, read after a conditional update matched nothing, to say why. */
export async function eventState(db: Executor, projectId: string, eventId: string) {
  const [row] = await selectEventState(db, eventId, projectId);
  if (!row) throw eventNotFound(eventId);
  return row;
}
export type EventState = Awaited<ReturnType<typeof eventState>>;
