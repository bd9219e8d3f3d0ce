import { and, asc, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import { encodeCursor } from "@/lib/events/event-cursor";
import { filterConditions, type EventFilter } from "@/lib/events/list-events";

/**
 * For newest-first pages: the cursor of the page before the one starting at `first`, `null` for the first page,
 * so "Previous" works without keeping history in the URL.
 */
export async function previousCursor(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; limit: number; first: { receivedAt: Date; id: string } } & EventFilter,
): Promise<string | null> {
  const newer = await db
    .select({ receivedAt: events.receivedAt, id: events.id })
    .from(events)
    .where(
      and(
        ...filterConditions(opts.actor.projectId, opts),
        sql`(${events.receivedAt}, ${events.id}) > (${opts.first.receivedAt.toISOString()}::timestamptz, ${opts.first.id})`,
      ),
    )
    .orderBy(asc(events.receivedAt), asc(events.id))
    .limit(opts.limit + 1);
  const boundary = newer[opts.limit];
  return boundary ? encodeCursor(boundary.receivedAt, boundary.id) : null;
}
