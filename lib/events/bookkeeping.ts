import { sql, type SQL } from "drizzle-orm";
import { events } from "@/lib/db/schema/events";

/**
 * Brynth's own `request.resolved` events: bookkeeping that follows every decision, for agents that wait on the event
 * inbox. On the owner's screens they would drown agent work, so the Events screen and the Overview leave them out
 * unless the owner asks for them (or filters on that type).
 */
export const BOOKKEEPING = { source: "brynth", type: "request.resolved" } as const;

export const notBookkeeping: SQL = sql`not (${events.source} = ${BOOKKEEPING.source} and ${events.type} = ${BOOKKEEPING.type})`;

/** An explicit filter on the bookkeeping type is asking for it. */
export const asksForBookkeeping = (type: string | undefined) =>
  type !== undefined && (type === BOOKKEEPING.type || (type.endsWith("*") && BOOKKEEPING.type.startsWith(type.slice(0, -1))));
