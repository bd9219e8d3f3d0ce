import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages, mailThreads, messageColumns, type MailThread } from "@/lib/db/schema/mail";
import type { MailEvent } from "@/lib/db/schema/mail-events";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { viewDraft } from "@/lib/mail/drafts/draft-view";
import { attachmentsOf } from "@/lib/mail/messages/attachments-of";
import { type AttachmentView, messageView } from "@/lib/mail/messages/message-view";
import { threadView } from "@/lib/mail/threads/thread-view";
import { snakeCase } from "@/lib/tools/casing/snake-case";

/** Webhook deliveries carry bodies up to this size (design §2.9); the live stream uses a stricter cap of its own. */
export const WEBHOOK_PAYLOAD_MAX_BYTES = 256 * 1024;

/**
 * One mail event as webhooks and the live stream send it, in AgentMail's shape (snake_case): the event's identity
 * and the current state of what it is about. `truncated` says the bodies were left out to fit the cap.
 */
export interface EventPayload {
  type: "event";
  event_type: string;
  event_id: string;
  created_at: string;
  /** A "Send test event" delivery: made up, about nothing stored. */
  test?: true;
  truncated?: true;
  /** Sent to a webhook whose creator may not read mail: identifiers and state only (withoutContent). */
  content_withheld?: true;
  message?: Record<string, unknown>;
  thread?: Record<string, unknown>;
  draft?: Record<string, unknown>;
  domain?: Record<string, unknown>;
}

/** The body fields left out of an event over the cap, as AgentMail drops bodies from large events. */
const BODY_KEYS = ["text", "html", "extracted_text", "extracted_html"] as const;

/**
 * The payload of `event`, read from the rows as they are now (a message labelled since is sent with its new
 * labels; one deleted since is described by the event's own summary). Bodies are dropped when the whole would
 * exceed `maxBytes`, so a 20 MB mail never becomes a 20 MB POST.
 */
export async function buildEventPayload(db: Executor, event: MailEvent, opts: { maxBytes: number }): Promise<EventPayload> {
  const [payload] = await buildEventPayloads(db, [event], opts);
  return payload;
}

/**
 * The payloads of many events, in order, with a few set-based reads per project (messages, their attachments,
 * threads, drafts) instead of three reads an event: the live stream's tail builds its frames 50 at a time, and
 * three reads each capped it at about 60 events a second per instance on the shared machine (bench/mail-stream.ts).
 */
export async function buildEventPayloads(db: Executor, events: readonly MailEvent[], opts: { maxBytes: number }): Promise<EventPayload[]> {
  const key = (projectId: string, id: string) => `${projectId}\u0000${id}`;
  const messages = new Map<string, Record<string, unknown>>();
  const threads = new Map<string, MailThread>();
  const drafts = new Map<string, MailDraft>();
  const byProject = new Map<string, MailEvent[]>();
  for (const e of events) byProject.set(e.projectId, [...(byProject.get(e.projectId) ?? []), e]);
  await Promise.all(
    [...byProject].map(async ([p, list]) => {
      const ids = (pick: (e: MailEvent) => string | null) => [...new Set(list.map(pick).filter((id): id is string => id !== null))];
      const [messageIds, threadIds, draftIds] = [ids((e) => e.messageId), ids((e) => e.threadId), ids((e) => e.draftId)];
      const [messageRows, attachments, threadRows, draftRows] = await Promise.all([
        messageIds.length
          ? db
              .select(messageColumns)
              .from(mailMessages)
              .where(and(eq(mailMessages.projectId, p), inArray(mailMessages.id, messageIds)))
          : [],
        messageIds.length ? attachmentsOf(db, p, messageIds) : new Map<string, AttachmentView[]>(),
        threadIds.length
          ? db
              .select()
              .from(mailThreads)
              .where(and(eq(mailThreads.projectId, p), inArray(mailThreads.id, threadIds)))
          : [],
        draftIds.length
          ? db
              .select()
              .from(mailDrafts)
              .where(and(eq(mailDrafts.projectId, p), inArray(mailDrafts.id, draftIds)))
          : [],
      ]);
      for (const row of messageRows) messages.set(key(p, row.id), snakeKeys(messageView(row, attachments.get(row.id) ?? [])));
      for (const row of threadRows) threads.set(key(p, row.id), row);
      for (const row of draftRows) drafts.set(key(p, row.id), row);
    }),
  );
  return Promise.all(
    events.map(async (event) => {
      const p = event.projectId;
      const out: EventPayload = { type: "event", event_type: event.type, event_id: event.id, created_at: event.createdAt.toISOString() };
      if (event.messageId) out.message = messages.get(key(p, event.messageId)) ?? gone(event, { message_id: event.messageId, thread_id: event.threadId });
      const thread = event.threadId ? threads.get(key(p, event.threadId)) : undefined;
      if (thread) out.thread = snakeKeys(threadView(thread));
      if (event.draftId) {
        const draft = drafts.get(key(p, event.draftId));
        out.draft = draft ? snakeKeys(await viewDraft(db, draft)) : gone(event, { draft_id: event.draftId, thread_id: event.threadId });
      }
      if (event.type.startsWith("domain.")) out.domain = { ...(event.summary.domain === undefined ? {} : { domain: event.summary.domain }) };
      return fitPayload(out, opts.maxBytes);
    }),
  );
}

/** The payload with its bodies dropped when its JSON would exceed `maxBytes`. */
export function fitPayload(payload: EventPayload, maxBytes: number): EventPayload {
  if (Buffer.byteLength(JSON.stringify(payload)) <= maxBytes) return payload;
  const strip = (o: Record<string, unknown> | undefined) => {
    if (!o) return o;
    const copy = { ...o };
    for (const k of BODY_KEYS) if (k in copy) copy[k] = null;
    return copy;
  };
  return { ...payload, truncated: true, message: strip(payload.message), draft: strip(payload.draft) };
}

/** What a payload keeps of a message, thread or draft for a reader without `message_read`: what it is and its state. */
const STATE_KEYS = [
  "inbox_id",
  "thread_id",
  "message_id",
  "draft_id",
  "labels",
  "timestamp",
  "direction",
  "send_at",
  "send_status",
  "send_reason",
  "created_at",
  "updated_at",
];

/**
 * The payload without mail content, for a webhook created by a key or grant that lacks `message_read`: creating a
 * webhook needs only `webhook_create` (the spec's table), and its deliveries must not hand such a key the senders,
 * subjects and bodies its tools refuse it, as the live stream refuses it mail events. It learns what happened and to
 * which ids; reading the content takes a key that may.
 */
export function withoutContent(payload: EventPayload): EventPayload {
  const keep = (o: Record<string, unknown> | undefined) => o && Object.fromEntries(STATE_KEYS.filter((k) => k in o).map((k) => [k, o[k]]));
  const { truncated: _, ...rest } = payload;
  return { ...rest, content_withheld: true, message: keep(payload.message), thread: keep(payload.thread), draft: keep(payload.draft) };
}

/** What the event itself recorded, for a message or draft deleted since (the summary never holds a body). */
function gone(event: MailEvent, ids: Record<string, string | null>): Record<string, unknown> {
  const s = event.summary;
  return {
    inbox_id: event.mailboxId,
    ...ids,
    from: s.from ?? null,
    to: s.to ?? [],
    subject: s.subject ?? null,
    preview: s.preview ?? null,
    labels: s.labels ?? [],
  };
}

/**
 * Our own views' keys in snake_case, as tool results are (design D4). Safe to convert blindly here, unlike a tool
 * result: these views hold no user-keyed records (no metadata, no headers).
 */
export function snakeKeys(value: unknown): Record<string, unknown> {
  return convert(value) as Record<string, unknown>;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeCase(k), convert(v)]));
}
