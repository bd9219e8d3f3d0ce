import type { EventRow, EventStatus, Trust } from "@/lib/db/schema/events";
import { statement } from "@/lib/db/statement";
import { CLAIM_INLINE_BYTES, envelopeSelect, VIEWER_INLINE_BYTES, type EnvelopeRow } from "@/lib/events/event-envelope";
import { EFFECTIVE_STATUS, IS_CLAIMABLE, MAX_ATTEMPTS } from "@/lib/events/event-status";

/*
 * The events module's hand-written statements, all in one place (lib/db/statement.ts): the hot paths — intake,
 * claim, ack, nack — where building the query with drizzle cost more CPU than the database spends on it. Rows come back
 * in drizzle's shape. Everything else in lib/events uses drizzle's builder.
 */

const INSERT_COLUMNS = `id, project_id, source_id, source, type, status, trust, payload, raw, content_type, payload_size, headers,
  dedupe_key, received_at, available_at, updated_at`;

/** One event's values, in the order of `insertEventRow`'s parameters; `raw` as bytes. */
export type EventInsertParams = [
  id: string,
  projectId: string,
  sourceId: string | null,
  source: string,
  type: string,
  trust: Trust,
  payload: string | null,
  raw: Buffer | null,
  contentType: string | null,
  payloadSize: number,
  headers: string,
  dedupeKey: string | null,
  at: string,
];

/** One event's statement, prepared text: building this 16-column insert with drizzle cost more CPU than the rest of intake. */
export const insertEventRow = statement<Pick<EventRow, "id">, EventInsertParams>(`
  insert into events (${INSERT_COLUMNS})
  values ($1, $2, $3, $4, $5, 'pending', $6, $7::json, $8::bytea, $9, $10, $11::jsonb, $12, $13::timestamptz, $13::timestamptz, $13::timestamptz)
  on conflict do nothing
  returning id`);

/**
 * Any number of events in one statement, as one JSON parameter (the same text for every batch size). A row that
 * conflicts — a retry of a delivery, even one in the same batch — is skipped and missing from what it returns.
 */
export const insertEventRows = statement<Pick<EventRow, "id">, [rows: string]>(`
  insert into events (${INSERT_COLUMNS})
  select r->>0, r->>1, r->>2, r->>3, r->>4, 'pending', r->>5, (r->>6)::json, decode(r->>7, 'base64'), r->>8, (r->>9)::int,
    (r->>10)::jsonb, r->>11, (r->>12)::timestamptz, (r->>12)::timestamptz, (r->>12)::timestamptz
  from jsonb_array_elements($1::jsonb) as r
  on conflict do nothing
  returning id`);

export type ClaimedRow = EnvelopeRow & { leaseToken: string; claimedAt: Date };
/** The event as the claim found it, to say why it could not be taken. */
export type PriorState = { priorStatus: EventStatus; priorClaimedBy: string | null; priorLeaseExpiresAt: Date | null; priorAvailableAt: Date };
export type ClaimResultRow = PriorState & ({ [K in keyof ClaimedRow]: null } | ClaimedRow);

/**
 * One statement takes the event, closes the attempt whose lease ran out (if any) and opens this one. The
 * sub-select's SKIP LOCKED decides between concurrent claimers: the first locks the row, every other skips it and
 * matches nothing, and once the winner commits the row is no longer claimable. The attempt statements see the
 * rows as they were before this statement, so closing the old attempt never touches the new one.
 *
 * The event's state as the statement found it comes along, so a claim that loses (a race, a taken lease) says why
 * without a second round trip; no row at all means no such event in this project.
 */
export const claimEventRow = statement<
  ClaimResultRow,
  [eventId: string, projectId: string, leaseToken: string, leaseSeconds: number, holder: string, agent: string | null, keyId: string | null]
>(`
  with claimed as (
    update events set status = 'claimed', lease_token = $3, lease_expires_at = now() + make_interval(secs => $4),
      claimed_by = $5, claimed_agent = $6, claimed_at = now(), attempts = events.attempts + 1, updated_at = now()
    where events.project_id = $2
      and events.id = (select id from events where id = $1 and project_id = $2 and ${IS_CLAIMABLE} for update skip locked)
    returning ${envelopeSelect(CLAIM_INLINE_BYTES)}, events.lease_token, events.claimed_at
  ), expired as (
    update event_attempts set outcome = 'expired', finished_at = claimed.claimed_at
    from claimed where claimed.attempts > 1 and event_attempts.project_id = $2 and event_attempts.event_id = claimed.id
      and event_attempts.outcome is null
  ), opened as (
    insert into event_attempts (project_id, event_id, attempt, key_id, agent, claimed_at, lease_expires_at)
    select $2, id, attempts, $7, $6, claimed_at, lease_expires_at from claimed
  )
  select claimed.*, prior.* from (
    select ${EFFECTIVE_STATUS} as prior_status, claimed_by as prior_claimed_by, lease_expires_at as prior_lease_expires_at,
      available_at as prior_available_at
    from events where id = $1 and project_id = $2
  ) prior left join claimed on true`);

/**
 * Only the lease holder: with a lease token ($4), the exact claim it names, made by the caller's key (any of its
 * sessions or agents: the token is the exact fence); without one, the holder that claimed ($3: key plus MCP session
 * or agent identity, holderOf). A token never crosses keys: it is a fence, not a capability. Ack and nack share it,
 * with the event ($1) and project ($2) in the same places.
 */
export const HELD_BY = `events.id = $1 and events.project_id = $2 and events.status = 'claimed'
  and case when $4::text is null then events.claimed_by = $3
    else events.lease_token = $4 and split_part(events.claimed_by, ' ', 1) = split_part($3, ' ', 1) end`;

/** The event and its open attempt close together. */
export const ackEventRow = statement<
  Pick<EventRow, "id" | "source" | "type"> & { finishedAt: Date },
  [eventId: string, projectId: string, holder: string, leaseToken: string | null, result: string | null]
>(`
  with acked as (
    update events set status = 'done', result = $5::jsonb, finished_at = now(), updated_at = now()
    where ${HELD_BY}
    returning id, source, type, finished_at
  ), closed as (
    update event_attempts set outcome = 'acked', finished_at = acked.finished_at
    from acked where event_attempts.project_id = $2 and event_attempts.event_id = acked.id and event_attempts.outcome is null
  )
  select * from acked`);

/** Retry delay after the n-th failed attempt: 30 s, 60 s, 120 s, 240 s… capped at one hour. */
export const RETRY_BASE_S = 30;
export const RETRY_MAX_S = 3600;

/** A nack ends the event when the caller says not to retry ($6 false) or its attempts are used up. */
const DIES = `(not $6::boolean or events.attempts >= ${MAX_ATTEMPTS})`;

/**
 * The event goes back (`failed` until its retry delay passes) or ends (`dead`), and its open attempt closes with
 * the reason ($5), together. The same shape as the ack.
 */
export const nackEventRow = statement<
  Pick<EventRow, "id" | "source" | "type" | "attempts" | "availableAt"> & { status: "failed" | "dead" },
  [eventId: string, projectId: string, holder: string, leaseToken: string | null, reason: string, retry: boolean]
>(`
  with nacked as (
    update events set status = case when ${DIES} then 'dead' else 'failed' end,
      available_at = case when ${DIES} then now()
        else now() + make_interval(secs => least(${RETRY_MAX_S}, ${RETRY_BASE_S} * power(2, events.attempts - 1))) end,
      finished_at = case when ${DIES} then now() end,
      last_error = $5, updated_at = now()
    where ${HELD_BY}
    returning id, source, type, status, attempts, available_at
  ), closed as (
    update event_attempts set outcome = case when nacked.status = 'dead' then 'dead' else 'nacked' end, reason = $5, finished_at = now()
    from nacked where event_attempts.project_id = $2 and event_attempts.event_id = nacked.id and event_attempts.outcome is null
  )
  select * from nacked`);

export type EventStateRow = Pick<EventRow, "id" | "source" | "type" | "claimedBy" | "leaseToken" | "leaseExpiresAt" | "availableAt" | "finishedAt"> & {
  /** The status column as stored; `status` is the one callers see (expired leases read through the clock). */
  stored: EventStatus;
  status: EventStatus;
};

/** An event's lease state, read after a conditional update matched nothing, to say why. */
export const selectEventState = statement<EventStateRow, [eventId: string, projectId: string]>(
  `select id, source, type, status as stored, ${EFFECTIVE_STATUS} as status, claimed_by, lease_token,
    lease_expires_at, available_at, finished_at
  from events where id = $1 and project_id = $2`,
);

export type EventDetailRow = EnvelopeRow & Pick<EventRow, "result" | "claimedBy" | "claimedAgent" | "claimedAt" | "finishedAt" | "sourceId">;

/** One event for the dashboard's viewer, payloads up to VIEWER_INLINE_BYTES inline. */
export const selectEventDetail = statement<EventDetailRow, [eventId: string, projectId: string]>(
  `select ${envelopeSelect(VIEWER_INLINE_BYTES)}, result, claimed_by, claimed_agent, claimed_at, finished_at, source_id
  from events where id = $1 and project_id = $2`,
);
