import type { EventStatus, Trust } from "@/lib/db/schema/events";
import { EFFECTIVE_STATUS } from "@/lib/events/event-status";

/** inbox_list and inbox_wait inline payloads up to 8 KB (spec); claims up to 64 KB, with a signed URL beyond. */
export const LIST_INLINE_BYTES = 8 * 1024;
export const CLAIM_INLINE_BYTES = 64 * 1024;
/** Payloads up to this size are shown inline in the dashboard viewer; larger ones are offered as a download. */
export const VIEWER_INLINE_BYTES = 1024 * 1024;

/**
 * The columns an envelope needs, as SQL text over `events` for hand-written statements (the claim, the list, and
 * every other reader of envelopes); the statement entry point gives them back as an `EnvelopeRow` (camelCase keys,
 * timestamps as Date). The payload is fetched only when it will be inlined, so listing large events costs no more
 * than listing small ones; JSON comes back as text and is parsed by `toEnvelope`, the same on both drivers.
 */
export const envelopeSelect = (inlineLimit: number) => `events.id, events.source, events.type,
  ${EFFECTIVE_STATUS} as status, events.trust, events.received_at, events.attempts, events.content_type,
  events.payload_size, events.headers, events.available_at, events.lease_expires_at, events.last_error,
  (events.payload is not null) as is_json,
  (case when events.payload_size <= ${Math.floor(inlineLimit)} then events.payload::text end) as payload_text,
  (case when events.payload_size <= ${Math.floor(inlineLimit)} then events.raw end) as raw`;

/** A row of `envelopeSelect`, as `statement`/`query` return it. */
export interface EnvelopeRow {
  id: string;
  source: string;
  type: string;
  status: EventStatus;
  trust: Trust;
  receivedAt: Date;
  attempts: number;
  contentType: string | null;
  payloadSize: number;
  headers: Record<string, string>;
  availableAt: Date;
  leaseExpiresAt: Date | null;
  lastError: string | null;
  isJson: boolean;
  payloadText: string | null;
  raw: Uint8Array | null;
}

export type PayloadEncoding = "json" | "text" | "base64";

/** The trust label an envelope shows: the spec's two; an unverified source's events are external data too. */
export type EnvelopeTrust = Exclude<Trust, "external_unverified">;

export interface Envelope {
  id: string;
  source: string;
  type: string;
  status: EventStatus;
  trust: EnvelopeTrust;
  /** False when nothing proves who sent the event: its source checks no signature (`verification: none`). */
  verified: boolean;
  received_at: string;
  attempts: number;
  content_type: string | null;
  payload: unknown;
  payload_encoding: PayloadEncoding | null;
  payload_size: number;
  payload_truncated: boolean;
  headers: Record<string, string>;
  lease_expires_at: string | null;
  retry_at: string | null;
  last_error: string | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Non-JSON bodies: text when they are valid UTF-8, else base64. */
export function decodeRaw(raw: Uint8Array): { payload: string; encoding: PayloadEncoding } {
  try {
    return { payload: utf8.decode(raw), encoding: "text" };
  } catch {
    return { payload: Buffer.from(raw).toString("base64"), encoding: "base64" };
  }
}

export function toEnvelope(row: EnvelopeRow): Envelope {
  let payload: unknown = null;
  let encoding: PayloadEncoding | null = null;
  let truncated = true;
  if (row.isJson && row.payloadText !== null) {
    payload = JSON.parse(row.payloadText);
    encoding = "json";
    truncated = false;
  } else if (!row.isJson && row.raw !== null) {
    ({ payload, encoding } = decodeRaw(row.raw));
    truncated = false;
  }
  return {
    id: row.id,
    source: row.source,
    type: row.type,
    status: row.status,
    trust: row.trust === "external_unverified" ? "external_untrusted" : row.trust,
    verified: row.trust !== "external_unverified",
    received_at: row.receivedAt.toISOString(),
    attempts: row.attempts,
    content_type: row.contentType,
    payload,
    payload_encoding: encoding,
    payload_size: row.payloadSize,
    payload_truncated: truncated,
    headers: row.headers,
    lease_expires_at: row.status === "claimed" ? (row.leaseExpiresAt?.toISOString() ?? null) : null,
    retry_at: row.status === "failed" ? row.availableAt.toISOString() : null,
    last_error: row.lastError,
  };
}
