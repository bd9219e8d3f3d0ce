import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";
import { events, type Trust } from "@/lib/db/schema/events";
import { newId } from "@/lib/ids";
import { notifyEventChanges, type EventChange } from "@/lib/events/events-channel";

export const MAX_TYPE_LENGTH = 200;

export interface NewEvent {
  /** Chosen by a caller that needs it before the INSERT returns; new otherwise. */
  id?: string;
  projectId: string;
  sourceId: string | null;
  source: string;
  type: string;
  trust: Trust;
  /** JSON text as received (stored verbatim), or bytes that are not JSON with their content type. */
  body: { json: string } | { raw: Uint8Array };
  contentType: string | null;
  payloadSize: number;
  headers: Record<string, string>;
  dedupeKey: string | null;
}

/**
 * The one insert for every event (webhooks and Brynth's own). A delivery already received under the same
 * dedupe key returns the first event instead of a second one. The NOTIFY rides in the caller's transaction, unless
 * the caller owns the transaction and publishes `change` after its commit (webhook intake, the hot path).
 */
export async function insertEvent(
  tx: Executor,
  e: NewEvent,
  opts: { notify: "in-transaction" | "caller-publishes" } = { notify: "in-transaction" },
): Promise<{ id: string; duplicate: boolean; change: EventChange | null }> {
  const now = new Date();
  const id = e.id ?? newId("evt");
  const type = e.type.slice(0, MAX_TYPE_LENGTH) || "unknown";
  // Hand-written rather than drizzle's insert builder: this is every webhook's one statement, and building the
  // 16-column insert cost more CPU than the rest of the intake path (measured in bench/events.ts).
  const inserted = await queryRows<{ id: string }>(
    tx,
    sql`insert into events (id, project_id, source_id, source, type, status, trust, payload, raw, content_type,
          payload_size, headers, dedupe_key, received_at, available_at, updated_at)
        values (${id}, ${e.projectId}, ${e.sourceId}, ${e.source}, ${type}, 'pending', ${e.trust},
          ${"json" in e.body ? e.body.json : null}::json, ${"raw" in e.body ? Buffer.from(e.body.raw) : null}::bytea,
          ${e.contentType}, ${e.payloadSize}, ${JSON.stringify(e.headers)}::jsonb, ${e.dedupeKey},
          ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
        on conflict do nothing
        returning id`,
  );
  if (inserted.length === 0 && e.dedupeKey !== null) {
    const [first] = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.projectId, e.projectId), eq(events.source, e.source), eq(events.dedupeKey, e.dedupeKey)));
    if (first) return { id: first.id, duplicate: true, change: null };
  }
  if (inserted.length === 0) throw new Error("event insert conflicted without a dedupe key");
  const change: EventChange = { project: e.projectId, id, source: e.source, type, status: "pending" };
  if (opts.notify === "in-transaction") await notifyEventChanges(tx, [change]);
  return { id, duplicate: false, change };
}
