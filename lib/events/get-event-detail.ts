import { and, asc, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts } from "@/lib/db/schema/events";
import { notFound } from "@/lib/errors";
import { statement } from "@/lib/db/statement";
import { envelopeSelect, type EnvelopeRow } from "@/lib/events/event-envelope";

/** Payloads up to this size are shown inline in the dashboard viewer; larger ones are offered as a download. */
export const VIEWER_INLINE_BYTES = 1024 * 1024;

const selectDetail = statement<
  EnvelopeRow & {
    result: unknown;
    claimedBy: string | null;
    claimedAgent: string | null;
    claimedAt: Date | null;
    finishedAt: Date | null;
    sourceId: string | null;
  },
  [eventId: string, projectId: string]
>(`select ${envelopeSelect(VIEWER_INLINE_BYTES)}, result, claimed_by, claimed_agent, claimed_at, finished_at, source_id
  from events where id = $1 and project_id = $2`);

/** One event for the dashboard: envelope, result, lease holder and the claim history with nack reasons. */
export async function getEventDetail(db: Executor, opts: { actor: Pick<Actor, "projectId">; eventId: string }) {
  const [row] = await selectDetail(db, opts.eventId, opts.actor.projectId);
  if (!row) throw notFound(`Event ${opts.eventId}`);
  const attempts = await db
    .select()
    .from(eventAttempts)
    .where(and(eq(eventAttempts.eventId, opts.eventId), eq(eventAttempts.projectId, opts.actor.projectId)))
    .orderBy(asc(eventAttempts.id));
  return { event: row, attempts };
}
