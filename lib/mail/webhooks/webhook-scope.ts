import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { AppError } from "@/lib/errors";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";

/**
 * Whose webhooks an actor sees (mailboxes spec "Webhooks"): a key only those it created, the owner (and the
 * system) every webhook of the project. Stored as the creator on each webhook: null when the owner made it.
 */
export const webhookCreator = (actor: Actor): string | null => (actor.type === "key" ? (actor.keyId ?? actor.id) : null);

export function visibleWebhooks(actor: Actor): SQL {
  const project = eq(mailWebhooks.projectId, actor.projectId);
  if (actor.type !== "key") return project;
  const creator = webhookCreator(actor);
  // A key with no identity of its own sees nothing rather than the owner's webhooks.
  return creator === null ? sql`false` : (and(project, eq(mailWebhooks.keyId, creator)) as SQL);
}

/** One text for a missing webhook and another key's, so a key cannot learn which ids exist. */
export const webhookNotFound = (id: string) =>
  new AppError("NOT_FOUND", `Webhook ${id} was not found.`, { fix: "Check the webhook id with list_webhooks (a key sees only the webhooks it created)." });

/**
 * The mailbox an `inboxId` argument names (NOT_FOUND outside the key's restriction, like every mailbox tool), or
 * null when it is omitted.
 */
export async function webhookInbox(db: Executor, actor: Actor, inboxId: string | undefined): Promise<string | null> {
  return inboxId === undefined ? null : (await findMailbox(db, actor, inboxId)).id;
}

/**
 * A live webhook the actor may see, by id; with `inboxId`, only if it watches that inbox. Anything else is
 * NOT_FOUND. `lock` takes the row for an update in the caller's transaction; `withDeleted` finds deleted ones too
 * (delete_webhook is idempotent).
 */
export async function findWebhook(
  db: Executor,
  opts: { actor: Actor; webhookId: string; inboxId?: string; lock?: boolean; withDeleted?: boolean },
): Promise<MailWebhook> {
  const inbox = await webhookInbox(db, opts.actor, opts.inboxId);
  const where = [visibleWebhooks(opts.actor), eq(mailWebhooks.id, opts.webhookId)];
  if (!opts.withDeleted) where.push(isNull(mailWebhooks.deletedAt));
  if (inbox) where.push(sql`${mailWebhooks.inboxIds} ? ${inbox}`);
  const q = db
    .select()
    .from(mailWebhooks)
    .where(and(...where))
    .limit(1);
  const [row] = await (opts.lock ? q.for("update") : q);
  if (!row) throw webhookNotFound(opts.webhookId);
  return row;
}
