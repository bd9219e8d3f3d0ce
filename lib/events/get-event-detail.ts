import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { selectEventDetail } from "@/lib/events/statements";

/** One event for the dashboard: envelope, result, lease holder and the claim history with nack reasons. */
export async function getEventDetail(db: Executor, opts: { actor: Pick<Actor, "projectId">; eventId: string }) {
  const [row] = await selectEventDetail(db, opts.eventId, opts.actor.projectId);
  if (!row) throw notFound(`Event ${opts.eventId}`);
  const attempts = await db
    .select()
    .from(eventAttempts)
    .where(and(eq(eventAttempts.eventId, opts.eventId), eq(eventAttempts.projectId, opts.actor.projectId)))
    .orderBy(asc(eventAttempts.id));
  return { event: row, attempts };
}
