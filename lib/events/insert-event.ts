import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { statement } from "@/lib/db/statement";
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
 * Every webhook's one statement, so a prepared text: building this 16-column insert with drizzle cost more CPU than
 * the rest of the intake path (bench/events.ts).
 */
const insert = statement<{ id: string }, unknown[]>(`
  insert into events (id, project_id, source_id, source, type, status, trust, payload, raw, content_type,
    payload_size, headers, dedupe_key, received_at, available_at, updated_at)
  values ($1, $2, $3, $4, $5, 'pending', $6, $7::json, $8::bytea, $9, $10, $11::jsonb, $12, $13::timestamptz, $13::timestamptz, $13::timestamptz)
  on conflict do nothing
  returning id`);

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
  const at = now.toISOString();
  const inserted = await insert(tx, id, e.projectId, e.sourceId, e.source, type, e.trust,
    "json" in e.body ? e.body.json : null, "raw" in e.body ? Buffer.from(e.body.raw) : null,
    e.contentType, e.payloadSize, JSON.stringify(e.headers), e.dedupeKey, at);
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
