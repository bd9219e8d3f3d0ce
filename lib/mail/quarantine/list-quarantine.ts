import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { failsAuthentication } from "@/lib/mail/inbound/categorize-inbound";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, keysetAt, keysetOrder, type PageKey } from "@/lib/db/keyset";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { authReason } from "@/lib/mail/quarantine/auth-reason";
import { blockReasons } from "@/lib/mail/quarantine/block-reason";
import { type QuarantineCategory, quarantineCategories } from "@/lib/mail/quarantine/quarantine-categories";

const SPAM_REASON = "A trusted relay (TRUSTED_RELAYS) marked it as spam.";

/**
 * Quarantined inbound mail of the actor's live mailboxes — spam, blocked and unauthenticated — newest first,
 * `limit` rows after `after`, optionally of one mailbox or one category. Each row says why it is here (`reason`).
 */
export async function listQuarantine(
  db: Executor,
  opts: { actor: Actor; mailboxId?: string | null; category?: QuarantineCategory; limit: number; after: PageKey | null },
) {
  const m = mailMessages;
  const where: SQL[] = [
    eq(m.projectId, opts.actor.projectId),
    eq(m.direction, "inbound"),
    opts.category ? eq(m.category, opts.category) : inArray(m.category, [...quarantineCategories]),
    // A deleted mailbox's mail has nowhere to be released to.
    isNull(mailboxes.deletedAt),
  ];
  if (opts.mailboxId) where.push(eq(m.mailboxId, opts.mailboxId));
  if (opts.after) where.push(keysetAfter(m.msgAt, m.id, opts.after, false));
  const rows = await db
    .select({
      id: m.id,
      mailboxId: m.mailboxId,
      mailboxAddress: mailboxes.address,
      threadId: m.threadId,
      fromAddress: m.fromAddress,
      fromName: m.fromName,
      to: m.to,
      subject: m.subject,
      preview: m.preview,
      category: sql<QuarantineCategory>`${m.category}`,
      authentication: m.authentication,
      msgAt: m.msgAt,
      pageAt: keysetAt(m.msgAt),
      // inboundContext's test for a reply: In-Reply-To names this mailbox's own outbound mail.
      isReply: sql<boolean>`exists (select 1 from mail_messages p where p.project_id = ${m.projectId} and p.mailbox_id = ${m.mailboxId}
        and p.direction = 'outbound' and ${m.inReplyTo} is not null and p.rfc_message_id = ${m.inReplyTo})`,
    })
    .from(m)
    .innerJoin(mailboxes, eq(mailboxes.id, m.mailboxId))
    .where(and(...where))
    .orderBy(...keysetOrder(m.msgAt, m.id, false))
    .limit(opts.limit);
  const blocked = await blockReasons(
    db,
    opts.actor.projectId,
    rows.filter((r) => r.category === "blocked"),
  );
  return rows.map(({ authentication, ...r }) => ({
    ...r,
    reason:
      r.category === "blocked"
        ? // Blocked outranks unauthenticated: a spoof on a list said only which list (found by helper-107).
          `${blocked.get(r.id) ?? ""}${failsAuthentication(authentication) ? `. It also failed authentication: ${authReason(authentication)}` : ""}`
        : r.category === "spam"
          ? SPAM_REASON
          : authReason(authentication),
  }));
}
export type QuarantineRow = Awaited<ReturnType<typeof listQuarantine>>[number];
