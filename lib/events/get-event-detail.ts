import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts, events } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { envelopeColumns, type EnvelopeRow } from "@/lib/events/event-envelope";

/** Payloads up to this size are shown inline in the dashboard viewer; larger ones are offered as a download. */
export const VIEWER_INLINE_BYTES = 1024 * 1024;

/** One event for the dashboard: envelope, result, lease holder and the claim history with nack reasons. */
export async function getEventDetail(db: Executor, opts: { actor: Pick<Actor, "projectId">; eventId: string }) {
  const [row] = await db
    .select({
      ...envelopeColumns(VIEWER_INLINE_BYTES),
      result: events.result,
      claimedBy: events.claimedBy,
      claimedAgent: events.claimedAgent,
      claimedAt: events.claimedAt,
      finishedAt: events.finishedAt,
      sourceId: events.sourceId,
    })
    .from(events)
    .where(and(eq(events.id, opts.eventId), eq(events.projectId, opts.actor.projectId)));
  if (!row) throw notFound(`Event ${opts.eventId}`);
  const attempts = await db
    .select()
    .from(eventAttempts)
    .where(and(eq(eventAttempts.eventId, opts.eventId), eq(eventAttempts.projectId, opts.actor.projectId)))
    .orderBy(asc(eventAttempts.id));
  return { event: row as typeof row & EnvelopeRow, attempts };
}
