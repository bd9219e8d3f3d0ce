import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { storableString, storableTime } from "@/lib/db/storable";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { oneQueryValue } from "@/lib/http/one-query-value";
import { eventPosition, START, type StreamPosition, type StreamRow } from "@/lib/http/stream/statements";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { isMailEventType, MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { validationError } from "@/lib/validation";

/** How far back `since` reaches: mail events are kept 7 days (purge-mail-events.ts). */
export const REPLAY_DAYS = 7;

/**
 * Text the subscription looks up (an inbox's id or address, an event id): a NUL failed that query inside the
 * database, a 500 before the SSE stream opened and an internal_error frame on a socket.
 */
const lookupText = (max: number) => storableString().min(1).max(max);

/**
 * What a client asks of the stream: the body of a WebSocket `subscribe` frame, or the SSE query. `inbox_ids` takes
 * ids or addresses (design D1); `since` an event id (`mev_…`) or an ISO time; `event_changes` the event inbox's
 * changes beside the mail events, `mail_events: false` those changes alone (the Events screen).
 */
export const subscribeInput = z
  .object({
    inbox_ids: z.array(lookupText(320)).min(1).max(100).optional(),
    event_types: z
      .array(z.string().refine(isMailEventType, { message: `is not a mail event type (one of ${MAIL_EVENT_TYPES.join(", ")})` }))
      .min(1)
      .max(MAIL_EVENT_TYPES.length)
      .optional(),
    since: lookupText(100).optional(),
    event_changes: z.boolean().optional(),
    mail_events: z.boolean().optional(),
  })
  .strict();
export type SubscribeInput = z.infer<typeof subscribeInput>;

export const SUBSCRIBE_FIX =
  'Send {"type":"subscribe"} with optional inbox_ids (ids or addresses), event_types (mail event types), since (an event_id or ISO time), event_changes and mail_events (true/false).';

/** A subscription resolved against its credential: what the socket gets from now on, and from where. */
export interface Subscription {
  projectId: string;
  /** The mailboxes whose events it gets; null: every mailbox of the project (and project-wide events). */
  mailboxIds: string[] | null;
  /** null: every mail event type. */
  eventTypes: string[] | null;
  /** The credential may read mail (message_read, or the owner). */
  mailEvents: boolean;
  eventChanges: boolean;
  /** Replay the outbox after this point before going live. */
  since: Since | null;
}

/** Where a replay starts: after an event (its position), or after a time (from the start of stream order). */
export interface Since {
  after: StreamPosition;
  afterTime: Date | null;
}

const hasFilter = (i: SubscribeInput) => i.inbox_ids !== undefined || i.event_types !== undefined;
const may = (actor: Actor, scope: string) => actor.type === "owner" || actor.scopes.includes(scope);

/**
 * Checks a subscription against the credential (design §2.6: a restricted key sees only its mailbox, any other is
 * NOT_FOUND; without `inbox_ids` it is clipped to its own) and finds where `since` starts. Throws AppError.
 */
export async function resolveSubscription(db: Executor, actor: Actor, raw: unknown): Promise<Subscription> {
  const parsed = subscribeInput.safeParse(raw);
  if (!parsed.success) {
    const err = validationError(parsed.error);
    throw new AppError("validation_error", err.message, { fix: SUBSCRIBE_FIX, details: err.details });
  }
  const input = parsed.data;
  if (input.mail_events === false && (hasFilter(input) || input.since !== undefined)) {
    throw fieldError("mail_events", "is false, so inbox_ids, event_types and since have nothing to filter", "Leave mail_events out, or drop the mail filters.");
  }
  const mailEvents = may(actor, "message_read") && input.mail_events !== false;
  const canChanges = may(actor, "inbox:read");
  const filtered = hasFilter(input);
  if (input.mail_events && !mailEvents) {
    throw new AppError("missing_permission", "Mail events need the `message_read` scope.", { fix: "Use a key with message_read (API keys screen)." });
  }
  if (!mailEvents && (filtered || input.since !== undefined)) {
    throw new AppError("missing_permission", "Mail events need the `message_read` scope.", { fix: "Use a key with message_read (API keys screen)." });
  }
  if (input.event_changes && !canChanges) {
    throw new AppError("missing_permission", "event_changes needs the `inbox:read` scope.", { fix: "Use a key with inbox:read, or leave event_changes out." });
  }
  let mailboxIds: string[] | null = actor.mailboxId ? [actor.mailboxId] : null;
  if (input.inbox_ids) {
    const found = [];
    for (const ref of input.inbox_ids) found.push((await findMailbox(db, actor, ref)).id);
    mailboxIds = [...new Set(found)];
  }
  return {
    projectId: actor.projectId,
    mailboxIds,
    eventTypes: input.event_types ? [...new Set(input.event_types)] : null,
    mailEvents,
    // With no filter a subscription gets everything its credential may read; a filter asks for mail events only.
    eventChanges: canChanges && (input.event_changes ?? !filtered),
    since: input.since === undefined ? null : await sincePoint(db, actor.projectId, input.since),
  };
}

async function sincePoint(db: Executor, projectId: string, since: string): Promise<Since> {
  const oldest = Date.now() - REPLAY_DAYS * 86_400_000;
  const tooOld = () =>
    fieldError(
      "since",
      `is more than ${REPLAY_DAYS} days ago; events are kept ${REPLAY_DAYS} days`,
      "Resubscribe without since and read the current state (list_threads), then follow the stream.",
    );
  if (since.startsWith("mev_")) {
    const at = await eventPosition(db, projectId, since);
    if (!at) {
      throw fieldError(
        "since",
        `no event ${since} in this project (events are kept ${REPLAY_DAYS} days)`,
        "Pass the event_id of an event this stream sent, or an ISO time within the last 7 days.",
      );
    }
    if (at.createdAt.getTime() < oldest) throw tooOld();
    return { after: { xid: at.xid, seq: at.seq }, afterTime: null };
  }
  const iso = z.iso.datetime({ offset: true }).safeParse(since);
  if (!iso.success)
    throw fieldError("since", "is neither an event id (mev_…) nor an ISO 8601 time", "Pass an event_id the stream sent, or a time like 2026-12-02T06:00:00Z.");
  const time = new Date(iso.data);
  if (time.getTime() < oldest) throw tooOld();
  // Later than timestamptz holds (`9999-12-31T23:59:59-14:00` is year 10000): the replay's query would fail after
  // `subscribed` was sent, as an internal_error frame.
  if (!storableTime(time.getTime())) throw fieldError("since", "must lie before 10000-01-01 (UTC)", "Pass a time within the last 7 days.");
  return { after: START, afterTime: time };
}

/** Whether a mail event belongs in a subscription (project already matched). */
export function wantsEvent(sub: Subscription, row: Pick<StreamRow, "mailboxId" | "type">): boolean {
  if (sub.mailboxIds && (!row.mailboxId || !sub.mailboxIds.includes(row.mailboxId))) return false;
  return !sub.eventTypes || sub.eventTypes.includes(row.type);
}

/** The SSE query as a subscription: lists comma-separated (or repeated), `event_changes` as true/false, others once. */
export function queryInput(url: URL): Record<string, unknown> {
  const q = url.searchParams;
  const list = (name: string) =>
    q.has(name)
      ? q
          .getAll(name)
          .flatMap((v) => v.split(","))
          .map((v) => v.trim())
          .filter(Boolean)
      : undefined;
  const input: Record<string, unknown> = {};
  const inboxIds = list("inbox_ids");
  const eventTypes = list("event_types");
  if (inboxIds) input.inbox_ids = inboxIds;
  if (eventTypes) input.event_types = eventTypes;
  if (q.has("since")) input.since = oneQueryValue("since", q.getAll("since"));
  for (const name of ["event_changes", "mail_events"]) {
    if (!q.has(name)) continue;
    const v = oneQueryValue(name, q.getAll(name));
    input[name] = v === "true" ? true : v === "false" ? false : v;
  }
  return input;
}
