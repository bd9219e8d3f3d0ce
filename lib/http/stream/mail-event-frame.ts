import type { Executor } from "@/lib/db/client";
import { frame, type StreamFrame } from "@/lib/http/stream/stream-frame";
import type { StreamRow } from "@/lib/http/stream/statements";
import { buildEventPayloads } from "@/lib/mail/events/event-payload";

/**
 * The stream's cap on one event (design §2.9): stricter than a webhook's 256 KB, since every socket holds its own
 * copy until it reads it; over it the bodies are left out (`truncated: true`), as AgentMail does.
 */
export const STREAM_EVENT_MAX_BYTES = 32 * 1024;

/**
 * The `event` frames of mail events, in order, built from reads shared by all (`buildEventPayloads`). Each is the
 * webhook payload (AgentMail's shape, `{type: "event", event_type, event_id, created_at, message?, thread?, draft?,
 * domain?}`, read from the rows as they are now), plus the event's `inbox_id` so a client can route any event type
 * without looking inside.
 */
export async function mailEventFrames(db: Executor, rows: readonly StreamRow[]): Promise<StreamFrame[]> {
  const payloads = await buildEventPayloads(db, rows, { maxBytes: STREAM_EVENT_MAX_BYTES });
  return payloads.map((payload, i) => frame({ ...payload, inbox_id: rows[i].mailboxId }, { id: rows[i].id, pos: { xid: rows[i].xid, seq: rows[i].seq } }));
}
