import { and, eq, inArray, sql } from "drizzle-orm";
import { coalesce } from "@/lib/db/coalesce";
import { getDb, type Executor, type Tx } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailEvents, type MailEvent } from "@/lib/db/schema/mail-events";
import { oauthGrants } from "@/lib/db/schema/oauth";
import { mailWebhookAttempts, mailWebhookDeliveries, mailWebhooks, type MailWebhook, type MailWebhookDelivery } from "@/lib/db/schema/mail-webhooks";
import { UnreadableSecretError } from "@/lib/crypto/secret-box";
import { safeFetch } from "@/lib/http/safe-fetch";
import { newId } from "@/lib/ids";
import { scheduledDelayMs } from "@/lib/jobs/backoff";
import { PermanentJobError, RetryLaterError, type JobContext, type JobFinish } from "@/lib/jobs/define-job-kind";
import { retryAfterMs } from "@/lib/http/retry-after";
import { buildEventPayloads, WEBHOOK_PAYLOAD_MAX_BYTES, withoutContent } from "@/lib/mail/events/event-payload";
import { recordDelivered } from "@/lib/mail/webhooks/delivery-statements";
import { openPreviousWebhookSecret } from "@/lib/mail/webhooks/rotate-secret";
import { disableWebhook, GONE_REASON, SUSTAINED_FAILURE_MS, SUSTAINED_FAILURE_REASON, tellOwnerWebhookDisabled } from "@/lib/mail/webhooks/disable-webhook";
import { isTestEventId, testEventPayload } from "@/lib/mail/webhooks/send-test-event";
import { SIGNATURE_HEADERS, signWebhook } from "@/lib/mail/webhooks/sign-webhook";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";
import { takeWebhookTurn, webhookRecovered } from "@/lib/mail/webhooks/webhook-breaker";
import { unwantedBecause } from "@/lib/mail/webhooks/webhook-wants";
import { takeEndpointSlot } from "@/lib/jobs/endpoint-slots";

/**
 * The delivery, its webhook and its event's body, read together with those of every delivery the lane started in
 * the same moment: a claim of 32 starts 32 handlers at once, and one query for all of them costs one round trip and
 * one connection instead of 32 (the pool has 10; bench/webhooks.ts).
 */
const loadDelivery = coalesce("mail.webhook.load", 64, readDeliveries);

async function readDeliveries(db: Executor, ids: string[]) {
  const rows = await db
    .select({
      delivery: mailWebhookDeliveries,
      webhook: mailWebhooks,
      event: mailEvents,
      creatorScopes: sql<string[] | null>`coalesce(${apiKeys.scopes}, ${oauthGrants.scopes})`,
    })
    .from(mailWebhookDeliveries)
    .innerJoin(mailWebhooks, and(eq(mailWebhooks.id, mailWebhookDeliveries.webhookId), eq(mailWebhooks.projectId, mailWebhookDeliveries.projectId)))
    .leftJoin(mailEvents, and(eq(mailEvents.id, mailWebhookDeliveries.eventId), eq(mailEvents.projectId, mailWebhookDeliveries.projectId)))
    .leftJoin(apiKeys, and(eq(apiKeys.id, mailWebhooks.keyId), eq(apiKeys.projectId, mailWebhooks.projectId)))
    .leftJoin(oauthGrants, and(eq(oauthGrants.id, mailWebhooks.keyId), eq(oauthGrants.projectId, mailWebhooks.projectId)))
    .where(inArray(mailWebhookDeliveries.id, ids));
  // One body per event, the events' payloads built with a few set-based reads for all: an event goes to each of
  // its webhooks, and building it once per delivery was four reads and a serialisation each.
  const events = new Map<string, MailEvent>();
  for (const r of rows) if (r.event && r.delivery.status === "pending") events.set(r.event.id, r.event);
  const payloads = await buildEventPayloads(db, [...events.values()], { maxBytes: WEBHOOK_PAYLOAD_MAX_BYTES });
  const byEvent = new Map([...events.keys()].map((id, i) => [id, payloads[i]]));
  const body = (r: (typeof rows)[number]) => {
    const payload = r.event && byEvent.get(r.event.id);
    if (!payload) return null;
    return JSON.stringify(mayReadMail(r.webhook, r.creatorScopes) ? payload : withoutContent(payload));
  };
  const byId = new Map(rows.map((r) => [r.delivery.id, { ...r, body: body(r) }]));
  return ids.map((id) => byId.get(id));
}

/**
 * Whether a webhook's deliveries carry mail content: the owner's always; a key's or grant's only while it holds
 * `message_read` (read at each delivery, so a narrowed key's webhooks follow). A creator whose row is gone is refused.
 */
const mayReadMail = (webhook: MailWebhook, creatorScopes: string[] | null) => webhook.keyId === null || (creatorScopes ?? []).includes("message_read");

/** Each attempt's deadline, and how much of the answer is read and how much of that is kept in the log. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_READ_BYTES = 4096;
const SNIPPET_CHARS = 1024;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseSnippet: string | null;
  error: string | null;
  /** A 429 or 503's `Retry-After`, in ms: the next attempt waits at least that long. */
  retryAfterMs?: number | null;
}

/**
 * One attempt of one delivery (the `mail.webhook` handler). A delivery whose webhook was deleted or switched off,
 * or that was cancelled or already settled, ends without a request. Otherwise the payload is built from the rows
 * as they are now, signed, and POSTed through safeFetch (guarded address at connect time, no redirects, 10 s).
 *
 * Every attempt leaves a `mail_webhook_attempts` row: a success commits it with the job's `done` (the returned
 * finish); a failure commits it before the error is thrown, so the runner's retry bookkeeping can never lose it.
 * 2xx → delivered; 410 → the webhook is switched off and no attempt follows; anything else is retried on the
 * schedule, and a webhook that has failed without a success for 5 days is switched off and its owner told. An
 * endpoint has at most JOBS_WEBHOOK_ENDPOINT_CONCURRENCY requests in flight on an instance (lib/jobs/endpoint-slots.ts), and
 * one failing BREAKER_FAILURES attempts in a row is sent one delivery at a time (webhook-breaker.ts): the others
 * wait, unattempted, until a request ends, or for the breaker until one succeeds, and then all go.
 */
export async function sendWebhook(
  deliveryId: string,
  ctx: Pick<JobContext, "lastAttempt" | "attempt" | "signal"> & { retryDelaysMs: readonly number[]; jobKind: string },
): Promise<JobFinish | undefined> {
  const db = await getDb();
  const found = await loadDelivery(deliveryId);
  // Gone with its webhook (cascade) or its project, settled by an earlier run, or cancelled: nothing to send.
  if (found?.delivery.status !== "pending") return;
  const { delivery, webhook } = found;
  // A test event may go to a disabled webhook: the owner checks a fixed endpoint before enabling it again.
  if (webhook.deletedAt || (!webhook.enabled && !isTestEventId(delivery.eventId))) {
    return (tx) => settle(tx, delivery, { status: "cancelled", lastError: webhook.deletedAt ? "the webhook was deleted" : "the webhook is disabled" });
  }
  const body = isTestEventId(delivery.eventId) ? JSON.stringify(await testEventPayload(db, delivery, webhook.inboxIds)) : found.body;
  if (!body) return (tx) => settle(tx, delivery, { status: "cancelled", lastError: "the event is no longer kept (7 days)" });
  // Narrowed since the event was queued (update_webhook): what it no longer wants is not sent, retries included.
  const unwanted = found.event && unwantedBecause(webhook, found.event);
  if (unwanted) return (tx) => settle(tx, delivery, { status: "cancelled", lastError: unwanted });

  let headers: Record<string, string>;
  try {
    const secrets = [openWebhookSecret(webhook), openPreviousWebhookSecret(webhook)].filter((s): s is string => s !== null);
    headers = { ...customHeaders(webhook), ...signWebhook({ id: delivery.eventId, body, secrets }) };
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    // Retrying cannot help: the owner rotates the secret (or restores APP_SECRET), then resends.
    const error = "the signing secret or the custom headers cannot be read (APP_SECRET changed?): rotate the secret, then resend";
    await db.transaction(async (tx) => {
      await recordAttempt(tx, delivery, { ok: false, statusCode: null, durationMs: 0, responseSnippet: null, error });
      await settle(tx, delivery, { status: "failed", attempted: true, statusCode: null, lastError: error });
    });
    throw new PermanentJobError(error);
  }
  // A test event is the owner's own check, and always goes: no slot to wait for, no breaker.
  const testEvent = isTestEventId(delivery.eventId);
  const releaseSlot = testEvent ? () => {} : takeEndpointSlot(`webhook:${webhook.id}`, `whk:${delivery.id}`, ctx.jobKind);
  let probe: boolean;
  let outcome: AttemptOutcome;
  try {
    // A failing endpoint gets one request at a time.
    probe = testEvent ? false : await takeWebhookTurn(db, webhook, delivery.id);
    outcome = await post(webhook.url, body, headers, ctx.signal);
  } finally {
    releaseSlot();
  }

  if (outcome.ok) {
    // Sent with the COMMIT that marks the job done: no round trip of its own.
    return async (tx) => {
      recordDelivered.withCommit(
        tx as Tx,
        newId("wat"),
        delivery.projectId,
        webhook.id,
        delivery.id,
        outcome.statusCode ?? 200,
        outcome.durationMs,
        snippet(outcome.responseSnippet),
      );
      if (probe) await webhookRecovered(tx, webhook, ctx.jobKind);
    };
  }
  const gone = outcome.statusCode === 410;
  // The runner waits the same (scheduledDelayMs), plus its jitter of up to 10 %.
  const waitMs = scheduledDelayMs(ctx.attempt, ctx.retryDelaysMs, outcome.retryAfterMs ?? 0, () => 0);
  const disabled = await db.transaction(async (tx) => {
    await recordAttempt(tx, delivery, outcome);
    const sustained = await countFailure(tx, webhook);
    const final = gone || sustained || ctx.lastAttempt;
    await settle(tx, delivery, {
      status: final ? "failed" : "pending",
      attempted: true,
      statusCode: outcome.statusCode,
      lastError: outcome.error,
      nextAttemptAt: final ? null : new Date(Date.now() + waitMs),
    });
    if (gone) return disableWebhook(tx, { projectId: webhook.projectId, webhookId: webhook.id, reason: GONE_REASON }).then(() => GONE_REASON);
    if (sustained && (await disableWebhook(tx, { projectId: webhook.projectId, webhookId: webhook.id, reason: SUSTAINED_FAILURE_REASON }))) {
      await tellOwnerWebhookDisabled(tx, { projectId: webhook.projectId, webhookId: webhook.id, url: webhook.url, reason: SUSTAINED_FAILURE_REASON });
    }
    return sustained ? SUSTAINED_FAILURE_REASON : null;
  });
  if (disabled) throw new PermanentJobError(`${outcome.error}; webhook ${webhook.id} is disabled (${disabled})`);
  if (outcome.retryAfterMs) throw new RetryLaterError(outcome.error ?? "delivery failed", outcome.retryAfterMs);
  throw new Error(outcome.error ?? "delivery failed");
}

/** The webhook's own headers, minus any spelling of ours (they are refused when set; this holds for old rows too). */
function customHeaders(w: MailWebhook): Record<string, string> {
  const ours = new Set<string>([...SIGNATURE_HEADERS, "content-type", "content-length", "host"]);
  return Object.fromEntries(Object.entries(openWebhookHeaders(w)).filter(([name]) => !ours.has(name.toLowerCase())));
}

async function post(url: string, body: string, headers: Record<string, string>, signal: AbortSignal): Promise<AttemptOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await safeFetch(url, {
      method: "POST",
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: RESPONSE_READ_BYTES,
      signal,
      // Ours last: a custom header never replaces the content type or a signature header.
      headers: { ...headers, "content-type": "application/json" },
    });
    const ok = res.status >= 200 && res.status < 300;
    const redirect = res.status >= 300 && res.status < 400;
    const retryAfter = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers["retry-after"]) : null;
    return {
      ok,
      statusCode: res.status,
      durationMs: ms(),
      responseSnippet: res.body ? res.body.slice(0, SNIPPET_CHARS) : null,
      error: ok
        ? null
        : redirect
          ? `answered ${res.status} (redirects are not followed)`
          : `answered ${res.status}${retryAfter === null ? "" : ` (Retry-After: ${Math.ceil(retryAfter / 1000)} s)`}`,
      retryAfterMs: retryAfter,
    };
  } catch (err) {
    return { ok: false, statusCode: null, durationMs: ms(), responseSnippet: null, error: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
  }
}

/** Postgres text refuses NUL; an endpoint's body may hold anything. */
const snippet = (text: string | null) => text?.replaceAll("\u0000", "") ?? null;

async function recordAttempt(tx: Executor, d: MailWebhookDelivery, o: AttemptOutcome): Promise<void> {
  await tx.insert(mailWebhookAttempts).values({
    id: newId("wat"),
    projectId: d.projectId,
    webhookId: d.webhookId,
    deliveryId: d.id,
    ok: o.ok,
    statusCode: o.statusCode,
    durationMs: o.durationMs,
    responseSnippet: snippet(o.responseSnippet),
    error: o.error,
  });
}

async function settle(
  tx: Executor,
  d: MailWebhookDelivery,
  s: {
    status: MailWebhookDelivery["status"];
    attempted?: true;
    statusCode?: number | null;
    lastError: string | null;
    nextAttemptAt?: Date | null;
    deliveredAt?: true;
  },
): Promise<void> {
  await tx
    .update(mailWebhookDeliveries)
    .set({
      status: s.status,
      ...(s.attempted ? { attempts: sql`${mailWebhookDeliveries.attempts} + 1`, lastStatusCode: s.statusCode ?? null } : {}),
      lastError: s.lastError,
      nextAttemptAt: s.nextAttemptAt ?? null,
      ...(s.deliveredAt ? { deliveredAt: sql`now()` } : {}),
      updatedAt: sql`now()`,
    })
    // Only a delivery still open is settled: a cancel (webhook deleted) that came during the request stands.
    .where(and(eq(mailWebhookDeliveries.projectId, d.projectId), eq(mailWebhookDeliveries.id, d.id), eq(mailWebhookDeliveries.status, "pending")));
}

/**
 * For the job's onFailure: a job that failed with its delivery still open (its last runner died mid-attempt, or an
 * error came before any attempt was recorded) fails the delivery too, which would otherwise read `pending` for ever.
 */
export async function failOpenDelivery(tx: Executor, o: { projectId: string; deliveryId: string; error: string }): Promise<void> {
  await tx
    .update(mailWebhookDeliveries)
    .set({ status: "failed", lastError: o.error, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(and(eq(mailWebhookDeliveries.projectId, o.projectId), eq(mailWebhookDeliveries.id, o.deliveryId), eq(mailWebhookDeliveries.status, "pending")));
}

/**
 * A failed attempt on the webhook's record: one more consecutive failure, the start of the run kept. True when the
 * run began more than SUSTAINED_FAILURE_MS ago without a success since: time to switch the webhook off.
 */
async function countFailure(tx: Executor, w: MailWebhook): Promise<boolean> {
  const [row] = await tx
    .update(mailWebhooks)
    .set({ consecutiveFailures: sql`${mailWebhooks.consecutiveFailures} + 1`, firstFailureAt: sql`coalesce(${mailWebhooks.firstFailureAt}, now())` })
    .where(and(eq(mailWebhooks.projectId, w.projectId), eq(mailWebhooks.id, w.id)))
    .returning({ sustained: sql<boolean>`${mailWebhooks.firstFailureAt} <= now() - make_interval(secs => ${SUSTAINED_FAILURE_MS / 1000})` });
  return row?.sustained === true;
}
