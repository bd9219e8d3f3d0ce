import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailWebhookAttempts, mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";

export const attemptOutcomes = ["succeeded", "failed"] as const;
export type AttemptOutcome = (typeof attemptOutcomes)[number];

export interface AttemptFilter {
  webhookId?: string | null;
  outcome?: AttemptOutcome;
  eventType?: string;
  /** The time window: attempts at or after `since` and before `until`. */
  since?: Date;
  until?: Date;
}

/**
 * The owner's delivery log: every HTTP attempt of every webhook of the project, newest first, with its delivery's event
 * and current state (so a row can offer "Resend"). Owner-only: agents read their webhooks, never this log.
 */
export async function listWebhookAttempts(db: Executor, opts: { actor: Actor; filter: AttemptFilter; limit: number; after: PageKey | null }) {
  const a = mailWebhookAttempts;
  const d = mailWebhookDeliveries;
  const f = opts.filter;
  const where: (SQL | undefined)[] = [eq(a.projectId, opts.actor.projectId)];
  if (f.webhookId) where.push(eq(a.webhookId, f.webhookId));
  if (f.outcome) where.push(eq(a.ok, f.outcome === "succeeded"));
  if (f.eventType) where.push(eq(d.eventType, f.eventType));
  if (f.since) where.push(gte(a.at, f.since));
  if (f.until) where.push(lt(a.at, f.until));
  if (opts.after) where.push(keysetAfter(a.at, a.id, opts.after, false));
  return db
    .select({
      id: a.id,
      at: a.at,
      pageAt: keysetAt(a.at),
      ok: a.ok,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      responseSnippet: a.responseSnippet,
      error: a.error,
      deliveryId: a.deliveryId,
      webhookId: a.webhookId,
      url: mailWebhooks.url,
      eventId: d.eventId,
      eventType: d.eventType,
      deliveryStatus: d.status,
      deliveryAttempts: d.attempts,
    })
    .from(a)
    .innerJoin(d, and(eq(d.id, a.deliveryId), eq(d.projectId, a.projectId)))
    .innerJoin(mailWebhooks, and(eq(mailWebhooks.id, a.webhookId), eq(mailWebhooks.projectId, a.projectId)))
    .where(and(...where))
    .orderBy(...keysetOrder(a.at, a.id, false))
    .limit(opts.limit);
}
export type WebhookAttemptRow = Awaited<ReturnType<typeof listWebhookAttempts>>[number];
