import { and, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailWebhooks, type MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { visibleWebhooks, webhookInbox } from "@/lib/mail/webhooks/webhook-scope";

/**
 * One page of the webhooks the actor sees (a key: its own; the owner: all), newest first unless `ascending`,
 * `limit` rows after `after`. With `inboxId`, only the webhooks that watch that inbox by name.
 */
export async function listWebhooks(
  db: Executor,
  opts: { actor: Actor; inboxId?: string; ascending?: boolean; limit: number; after: PageKey | null },
): Promise<{ mailboxId: string | null; rows: Array<MailWebhook & { pageAt: string }> }> {
  const mailboxId = await webhookInbox(db, opts.actor, opts.inboxId);
  const asc = opts.ascending === true;
  const where: SQL[] = [visibleWebhooks(opts.actor), isNull(mailWebhooks.deletedAt)];
  if (mailboxId) where.push(sql`${mailWebhooks.inboxIds} ? ${mailboxId}`);
  if (opts.after) where.push(keysetAfter(mailWebhooks.createdAt, mailWebhooks.id, opts.after, asc));
  const rows = await db
    .select({ ...getTableColumns(mailWebhooks), pageAt: keysetAt(mailWebhooks.createdAt) })
    .from(mailWebhooks)
    .where(and(...where))
    .orderBy(...keysetOrder(mailWebhooks.createdAt, mailWebhooks.id, asc))
    .limit(opts.limit);
  return { mailboxId, rows };
}
