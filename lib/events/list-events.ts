import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { events, type EventStatus } from "@/lib/db/schema/events";
import { notBookkeeping } from "@/lib/events/bookkeeping";
import { decodeCursor, encodeCursor } from "@/lib/events/event-cursor";
import { query } from "@/lib/db/statement";
import { envelopeSelect, LIST_INLINE_BYTES, type EnvelopeRow } from "@/lib/events/event-envelope";
import { statusCondition } from "@/lib/events/event-status";
import { typeCondition } from "@/lib/events/type-filter";

export interface EventFilter {
  /** Unset: every status (the dashboard's "all"). */
  status?: EventStatus;
  source?: string;
  /** Exact, or a prefix ending in `*`. */
  type?: string;
  since?: Date;
  until?: Date;
  /** Leave out Brynth's own request.resolved events (the owner's screens, unless asked for). */
  hideBookkeeping?: boolean;
}

export function filterConditions(projectId: string, f: EventFilter): SQL[] {
  const where: SQL[] = [eq(events.projectId, projectId)];
  if (f.status) where.push(statusCondition[f.status]);
  if (f.source) where.push(eq(events.source, f.source));
  if (f.type) where.push(typeCondition(f.type));
  if (f.since) where.push(gte(events.receivedAt, f.since));
  if (f.until) where.push(lt(events.receivedAt, f.until));
  if (f.hideBookkeeping) where.push(notBookkeeping);
  return where;
}

/** Oldest first for agents (a queue); the dashboard reads newest first. Payloads over `inlineLimit` are left out. */
export async function listEvents(
  db: Executor,
  opts: { actor: Pick<Actor, "projectId">; limit: number; cursor?: string; order?: "asc" | "desc"; inlineLimit?: number } & EventFilter,
): Promise<{ events: EnvelopeRow[]; nextCursor: string | null }> {
  const where = filterConditions(opts.actor.projectId, opts);
  const newestFirst = opts.order === "desc";
  if (opts.cursor) {
    const c = decodeCursor(opts.cursor);
    where.push(
      newestFirst
        ? sql`(${events.receivedAt}, ${events.id}) < (${c.receivedAt.toISOString()}::timestamptz, ${c.id})`
        : sql`(${events.receivedAt}, ${events.id}) > (${c.receivedAt.toISOString()}::timestamptz, ${c.id})`,
    );
  }
  const dir = sql.raw(newestFirst ? "desc" : "asc");
  const rows = await query<EnvelopeRow>(
    db,
    sql`select ${sql.raw(envelopeSelect(opts.inlineLimit ?? LIST_INLINE_BYTES))} from events where ${and(...where)}
      order by events.received_at ${dir}, events.id ${dir} limit ${opts.limit + 1}`,
  );
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return { events: page, nextCursor: rows.length > opts.limit && last ? encodeCursor(last.receivedAt, last.id) : null };
}
