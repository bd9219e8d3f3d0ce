import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { takeTurn } from "@/lib/db/turn-lock";
import { mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { MailEventType } from "@/lib/mail/events/event-types";
import { webhookInboxIds } from "@/lib/mail/webhooks/webhook-inboxes";
import { visibleWebhooks, webhookCreator, webhookInbox } from "@/lib/mail/webhooks/webhook-scope";
import { webhooksChanged } from "@/lib/mail/webhooks/webhook-presence";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";

/** Live webhooks a key may have, and a project, every creator's webhooks counted (the owner's included). */
export const MAX_WEBHOOKS_PER_KEY = 20;
export const MAX_WEBHOOKS_PER_PROJECT = 100;

export interface NewWebhook {
  url: string;
  eventTypes: readonly MailEventType[];
  inboxIds?: readonly string[];
  clientId?: string;
  enabled?: boolean;
}

/**
 * create_webhook (and the owner's "New webhook"): a webhook with a fresh `whsec_` secret, owned by the actor's key
 * (null for the owner). A `clientId` the same creator used before returns that webhook unchanged (`created:
 * false`), so a retried create never makes a second one; deleted since, it is CONFLICT. The fields arrive checked
 * (webhook-fields.ts); the inboxes are resolved here.
 */
export async function createWebhook(db: Executor, opts: { actor: Actor; inboxId?: string; webhook: NewWebhook }) {
  const { actor, webhook } = opts;
  const inbox = await webhookInbox(db, actor, opts.inboxId);
  const creator = webhookCreator(actor);
  // A project's creates take turns: both caps and the client_id replay are then exact (the owner's key_id is null,
  // which the unique index does not cover). Creating a webhook is rare; its deliveries take no turn.
  await takeTurn(db, `mail_webhooks:${actor.projectId}`);
  if (webhook.clientId !== undefined) {
    const [first] = await db
      .select()
      .from(mailWebhooks)
      .where(and(visibleWebhooks(actor), ...(creator === null ? [isNull(mailWebhooks.keyId)] : []), eq(mailWebhooks.clientId, webhook.clientId)))
      .limit(1);
    // Deleted since: the replay answered it as live and enabled while nothing was delivered (found by helper-109);
    // a retry must not bring it back either. create_inbox answers the same.
    if (first?.deletedAt) {
      throw new AppError("CONFLICT", `The webhook created with clientId ${JSON.stringify(webhook.clientId)} (${first.id}) was deleted.`, {
        fix: "Use a new clientId to create another webhook.",
        details: [{ field: "clientId", message: "its webhook was deleted" }],
      });
    }
    if (first) return { webhook: first, created: false };
  }
  const [{ mine, all }] = await db
    .select({ mine: sql<number>`count(*) filter (where ${visibleWebhooks(actor)})::int`, all: count() })
    .from(mailWebhooks)
    .where(and(eq(mailWebhooks.projectId, actor.projectId), isNull(mailWebhooks.deletedAt)));
  const over =
    creator !== null && mine >= MAX_WEBHOOKS_PER_KEY
      ? (["A key", MAX_WEBHOOKS_PER_KEY, mine] as const)
      : all >= MAX_WEBHOOKS_PER_PROJECT
        ? (["A project", MAX_WEBHOOKS_PER_PROJECT, all] as const)
        : null;
  if (over) {
    const [who, cap, n] = over;
    throw new AppError("QUOTA_EXCEEDED", `${who} may have at most ${cap} webhooks; this one has ${n}.`, {
      fix: "Delete a webhook you no longer need (delete_webhook), or widen an existing one's event_types or inbox_ids.",
    });
  }
  // The inbox the call is made for (`inboxId`) is watched when inbox_ids names none: AgentMail's inbox-level webhook.
  const named = webhook.inboxIds?.length ? webhook.inboxIds : inbox ? [inbox] : [];
  const inboxIds = await webhookInboxIds(db, actor, named);
  webhooksChanged(actor.projectId);
  const id = newId("whk");
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(mailWebhooks)
    .values({
      id,
      projectId: actor.projectId,
      keyId: creator,
      clientId: webhook.clientId ?? null,
      url: webhook.url,
      eventTypes: [...new Set(webhook.eventTypes)],
      inboxIds,
      secretEnc: sealWebhookSecret(id, secret),
      enabled: webhook.enabled ?? true,
      disabledReason: webhook.enabled === false ? disabledBy(actor) : null,
    })
    .returning();
  return { webhook: row as MailWebhook, created: true };
}

/** Why a webhook was switched off by hand, for the owner's list (`disabled_reason`). */
export const disabledBy = (actor: Actor) =>
  actor.type === "key" ? `disabled by key ${actor.keyName ?? actor.keyPrefix ?? actor.keyId ?? ""}`.trim() : "disabled by the owner";
