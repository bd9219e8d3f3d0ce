import type { Executor } from "@/lib/db/client";
import { baseSubject, sameBaseSubject } from "@/lib/mail/inbound/base-subject";
import { type RelatedRow, selectRelated } from "@/lib/mail/inbound/statements";

export interface Related {
  /** The existing thread this message joins, or null for a new one. */
  threadId: string | null;
  /** Our sent message this one answers (the nearest one referenced, in any mailbox), for `reply_to`. */
  repliedTo: { id: string; replyToInbox: boolean } | null;
  /** Our id of the message In-Reply-To names, when it is in this mailbox. */
  inReplyToMessageId: string | null;
}

const MAX_IDS = 50;
const MAX_CHILDREN = 20;

/**
 * Threading (design §2.3 item 5), one query for both directions:
 * - cited: the messages In-Reply-To and References name (newest reference first, at most 50); the nearest one in
 *   this mailbox whose thread passes the subject check gives the thread;
 * - child (reverse adoption): a parent that arrives after its reply joins the reply's thread. Found through the
 *   GIN index on `references`; store-inbound.ts adds In-Reply-To to a stored message's References when missing
 *   (RFC 5322 §3.6.4), so a reply that sent only In-Reply-To is found too.
 * The subject check: a message joins a thread only when base subjects match, unless what it cites is one of this
 * mailbox's own outbound messages (whose Message-ID nobody else has seen). Thread ids never change and two
 * existing threads are never merged: this only picks the thread a new message joins.
 */
export async function findRelated(
  db: Executor,
  opts: { projectId: string; mailboxId: string; messageId: string | null; inReplyTo: string | null; references: string[]; subject: string | null },
): Promise<Related> {
  const ids = [...new Set([opts.inReplyTo, ...[...opts.references].reverse()].filter((x): x is string => !!x))].slice(0, MAX_IDS);
  if (ids.length === 0 && !opts.messageId) return { threadId: null, repliedTo: null, inReplyToMessageId: null };
  const rows = await selectRelated(db, opts.projectId, opts.mailboxId, ids, opts.messageId, MAX_CHILDREN);

  const base = baseSubject(opts.subject);
  const threadBase = (r: RelatedRow) => r.threadBase ?? baseSubject(r.threadSubject);
  const rank = (rfc: string | null) => ids.indexOf(rfc ?? "");
  const citedRows = rows.filter((r) => r.kind === "cited").sort((a, b) => rank(a.rfc) - rank(b.rfc));
  const here = citedRows.filter((r) => r.mailboxId === opts.mailboxId);
  // Threads holding one of our own sent messages that this message cites: its id is unguessable, so no subject check.
  const answered = new Set(here.filter((r) => r.direction === "outbound").map((r) => r.threadId));
  const parent = here.find((r) => answered.has(r.threadId) || sameBaseSubject(threadBase(r), base));
  const child = parent ? undefined : rows.find((r) => r.kind === "child" && sameBaseSubject(threadBase(r), base));
  const sent = citedRows.find((r) => r.direction === "outbound");
  const inReplyTo = opts.inReplyTo ? here.find((r) => r.rfc === opts.inReplyTo) : undefined;
  return {
    threadId: parent?.threadId ?? child?.threadId ?? null,
    repliedTo: sent ? { id: sent.id, replyToInbox: sent.replyToInbox } : null,
    inReplyToMessageId: inReplyTo?.id ?? null,
  };
}
