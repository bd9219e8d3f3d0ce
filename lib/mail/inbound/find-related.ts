import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";

export interface Related {
  /** The thread of the nearest referenced message in the same mailbox. */
  threadId: string | null;
  /** Our sent message this one answers (the nearest one referenced), for `reply_to`. */
  repliedTo: { id: string; replyToInbox: boolean } | null;
}

/**
 * Threading by In-Reply-To, then References from the newest back (RFC 5322 §3.6.4): one query over the ids the
 * message cites, the nearest match wins.
 */
export async function findRelated(
  db: Executor,
  opts: { projectId: string; mailboxId: string; inReplyTo: string | null; references: string[] },
): Promise<Related> {
  const ids = [...new Set([opts.inReplyTo, ...[...opts.references].reverse()].filter((x): x is string => !!x))].slice(0, 50);
  if (ids.length === 0) return { threadId: null, repliedTo: null };
  const rows = await db
    .select({
      id: mailMessages.id,
      rfc: mailMessages.rfcMessageId,
      threadId: mailMessages.threadId,
      mailboxId: mailMessages.mailboxId,
      direction: mailMessages.direction,
      replyToInbox: mailMessages.replyToInbox,
    })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, opts.projectId), inArray(mailMessages.rfcMessageId, ids)));
  const rank = (rfc: string | null) => ids.indexOf(rfc ?? "");
  rows.sort((a, b) => rank(a.rfc) - rank(b.rfc));
  const thread = rows.find((r) => r.mailboxId === opts.mailboxId);
  const sent = rows.find((r) => r.direction === "outbound");
  return { threadId: thread?.threadId ?? null, repliedTo: sent ? { id: sent.id, replyToInbox: sent.replyToInbox } : null };
}
