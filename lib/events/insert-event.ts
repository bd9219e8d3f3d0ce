import { and, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "@/lib/db/client";
import { isTransaction } from "@/lib/db/transaction";
import { coalesce } from "@/lib/db/coalesce";
import { events, type Trust } from "@/lib/db/schema/events";
import { newId } from "@/lib/ids";
import { notifyEventChange } from "@/lib/events/events-channel";
import { insertEventRow, insertEventRows, type EventInsertParams } from "@/lib/events/statements";
import { sliceWhole } from "@/lib/text/well-formed";

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

type Stored = { inserted: boolean } | { error: unknown };

async function insertRows(db: Db, rows: EventInsertParams[]): Promise<Stored[]> {
  try {
    const json = JSON.stringify(rows.map((p) => p.map((v) => (Buffer.isBuffer(v) ? v.toString("base64") : v))));
    const inserted = new Set((await insertEventRows(db, json)).map((r) => r.id));
    return rows.map(([id]) => ({ inserted: inserted.has(id) }));
  } catch {
    // The statement committed nothing: each event goes again on its own, so one the database refuses fails alone.
    return Promise.all(
      rows.map((p) =>
        insertEventRow(db, ...p).then(
          (r) => ({ inserted: r.length > 0 }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
  }
}

/**
 * Webhooks arriving together share one INSERT and one commit (coalesce.ts): per delivery that saves a round trip
 * and a WAL flush, the largest costs of intake. Each delivery still waits until its own event is committed.
 * Bodies over this size go alone, so a batch stays a small message.
 */
const COALESCE_MAX_BYTES = 64 * 1024;
const insertCoalesced = coalesce("event inserts", 64, insertRows);

/**
 * The one insert for every event (webhooks and Brynth's own). A delivery already received by the same source
 * under the same dedupe key returns the first event instead of a second one (events_dedupe_idx). Waiters are told
 * once the event has committed: with the caller's transaction, or at once when given the database (the insert has
 * committed by then).
 */
export async function insertEvent(tx: Executor, e: NewEvent): Promise<{ id: string; duplicate: boolean }> {
  const now = new Date();
  const id = e.id ?? newId("evt");
  const type = sliceWhole(e.type, MAX_TYPE_LENGTH) || "unknown";
  const at = now.toISOString();
  const params: EventInsertParams = [
    id,
    e.projectId,
    e.sourceId,
    e.source,
    type,
    e.trust,
    "json" in e.body ? e.body.json : null,
    "raw" in e.body ? Buffer.from(e.body.raw) : null,
    e.contentType,
    e.payloadSize,
    JSON.stringify(e.headers),
    e.dedupeKey,
    at,
  ];
  // Outside a transaction nothing else commits with the event, so it may share its INSERT with concurrent ones.
  let inserted: boolean;
  if (!isTransaction(tx) && e.payloadSize <= COALESCE_MAX_BYTES) {
    const stored = await insertCoalesced(params);
    if ("error" in stored) throw stored.error;
    inserted = stored.inserted;
  } else inserted = (await insertEventRow(tx, ...params)).length > 0;
  if (!inserted && e.dedupeKey !== null) {
    const first = await findDelivered(tx, { ...e, dedupeKey: e.dedupeKey });
    if (first) return { id: first, duplicate: true };
  }
  if (!inserted) throw new Error("event insert conflicted without a dedupe key");
  notifyEventChange(tx, { project: e.projectId, id, source: e.source, type, status: "pending" });
  return { id, duplicate: false };
}

/** The event a source already stored under `dedupeKey` (events_dedupe_idx), or null. */
export async function findDelivered(
  db: Executor,
  e: { projectId: string; source: string; sourceId: string | null; dedupeKey: string },
): Promise<string | null> {
  const [first] = await db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        eq(events.projectId, e.projectId),
        eq(events.source, e.source),
        sql`coalesce(${events.sourceId}, '') = ${e.sourceId ?? ""}`,
        eq(events.dedupeKey, e.dedupeKey),
      ),
    );
  return first?.id ?? null;
}
