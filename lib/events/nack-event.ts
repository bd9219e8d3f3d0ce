import { and, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { eventAttempts, events, type EventStatus } from "@/lib/db/schema/events";
import { heldBy } from "@/lib/events/ack-event";
import { eventState } from "@/lib/events/event-state";
import { MAX_ATTEMPTS } from "@/lib/events/event-status";
import { notifyEventChange } from "@/lib/events/events-channel";
import { leaseError } from "@/lib/events/lease-errors";
import { cutUtf8 } from "@/lib/text/cut-utf8";

/** Retry delay after the n-th failed attempt: 30 s, 60 s, 120 s, 240 s… capped at one hour. */
export const RETRY_BASE_S = 30;
export const RETRY_MAX_S = 3600;
export const MAX_REASON_BYTES = 1024;

/** Gives a claimed event back: `failed` until its retry delay passes, or `dead` after the last attempt or retry:false. */
export async function nackEvent(
  tx: Executor,
  opts: { actor: Actor; eventId: string; reason: string; retry: boolean; leaseToken?: string },
): Promise<{ id: string; status: Extract<EventStatus, "failed" | "dead">; attempts: number; retryAt: Date | null }> {
  const { actor } = opts;
  const reason = cutUtf8(opts.reason, MAX_REASON_BYTES);
  const dies = opts.retry ? sql`${events.attempts} >= ${MAX_ATTEMPTS}` : sql`true`;
  const [row] = await tx
    .update(events)
    .set({
      status: sql`(case when ${dies} then 'dead' else 'failed' end)`,
      availableAt: sql`(case when ${dies} then now()
        else now() + make_interval(secs => least(${RETRY_MAX_S}, ${RETRY_BASE_S} * power(2, ${events.attempts} - 1))) end)`,
      finishedAt: sql`(case when ${dies} then now() end)`,
      lastError: reason,
      updatedAt: sql`now()`,
    })
    .where(heldBy(actor, opts.eventId, opts.leaseToken))
    .returning({
      id: events.id,
      source: events.source,
      type: events.type,
      status: events.status,
      attempts: events.attempts,
      availableAt: events.availableAt,
    });
  if (!row) throw leaseError(await eventState(tx, actor.projectId, opts.eventId), "nack");
  const status = row.status as "failed" | "dead";
  await tx
    .update(eventAttempts)
    .set({ outcome: status === "dead" ? "dead" : "nacked", reason, finishedAt: sql`now()` })
    .where(and(eq(eventAttempts.eventId, row.id), isNull(eventAttempts.outcome)));
  notifyEventChange(tx, { project: actor.projectId, id: row.id, source: row.source, type: row.type, status });
  return { id: row.id, status, attempts: row.attempts, retryAt: status === "failed" ? row.availableAt : null };
}
