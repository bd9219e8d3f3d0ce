import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts, events } from "@/lib/db/schema/events";
import { statusCondition } from "@/lib/events/event-status";
import { filterConditions, type EventFilter } from "@/lib/events/list-events";
import { notifyEventChange } from "@/lib/events/events-channel";

/** Most events one requeue call touches; the dashboard repeats calls to show progress on larger sets. */
export const REQUEUE_BATCH = 500;

/**
 * Puts `dead` and `failed` events back to `pending` with a fresh set of attempts: either the listed ids, or the
 * next batch matching a filter. Other events in the list are left alone.
 */
export async function requeueEvents(
  tx: Executor,
  opts: { actor: Actor } & ({ eventIds: string[] } | { filter: Omit<EventFilter, "status"> & { status: "dead" | "failed" } }),
): Promise<{ requeued: string[] }> {
  const { actor } = opts;
  const requeueable = or(statusCondition.dead, statusCondition.failed)!;
  let target: SQL;
  if ("eventIds" in opts) {
    if (opts.eventIds.length === 0) return { requeued: [] };
    target = and(eq(events.projectId, actor.projectId), inArray(events.id, opts.eventIds.slice(0, REQUEUE_BATCH)), requeueable)!;
  } else {
    const batch = tx
      .select({ id: events.id })
      .from(events)
      .where(and(...filterConditions(actor.projectId, opts.filter)))
      .limit(REQUEUE_BATCH);
    target = and(eq(events.projectId, actor.projectId), inArray(events.id, batch), requeueable)!;
  }
  const rows = await tx
    .update(events)
    .set({
      status: "pending",
      attempts: 0,
      availableAt: sql`now()`,
      leaseToken: null,
      leaseExpiresAt: null,
      finishedAt: null,
      updatedAt: sql`now()`,
    })
    .where(target)
    .returning({ id: events.id, source: events.source, type: events.type });
  if (rows.length === 0) return { requeued: [] };
  const ids = rows.map((r) => r.id);
  // A lease that ran out on the last attempt was never closed: record it before the fresh start.
  await tx
    .update(eventAttempts)
    .set({ outcome: "expired", finishedAt: sql`now()` })
    .where(and(eq(eventAttempts.projectId, actor.projectId), inArray(eventAttempts.eventId, ids), isNull(eventAttempts.outcome)));
  for (const r of rows) notifyEventChange(tx, { project: actor.projectId, id: r.id, source: r.source, type: r.type, status: "pending" });
  return { requeued: ids };
}
