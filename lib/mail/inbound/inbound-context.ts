import type { Executor } from "@/lib/db/client";
import { listCandidates, listVerdict } from "@/lib/mail/inbound/list-verdict";
import { selectInboundContext } from "@/lib/mail/inbound/statements";

export interface InboundContext {
  /** A message of this Message-ID already stored in the mailbox (a redelivery). */
  duplicate: { id: string; eventId: string | null } | null;
  /** The mail continues a thread this mailbox replied to: In-Reply-To names one of its outbound messages. */
  isReply: boolean;
  /** The sender is refused by the lists that apply (`reply` lists for a reply, `receive` lists otherwise; L1). */
  blocked: boolean;
  /** The project's active email source, looked up only for the project address. */
  source: { id: string; name: string } | null;
}

/**
 * What storing one inbound message needs to know before writing, in one round trip (commit latency and round
 * trips are what bound inbound throughput): duplicate, whether it is a reply to this mailbox, the list entries that
 * match the sender in the direction that applies plus whether each scope has an allow list, and the email source.
 * The list decision itself is listVerdict's.
 */
export async function inboundContext(
  db: Executor,
  opts: { projectId: string; mailboxId: string; isDefault: boolean; rfcMessageId: string | null; inReplyTo: string | null; from: string | null },
): Promise<InboundContext> {
  const [row] = await selectInboundContext(db, opts.projectId, opts.mailboxId, opts.isDefault, opts.rfcMessageId, opts.inReplyTo, listCandidates(opts.from));
  return {
    duplicate: row.dupId ? { id: row.dupId, eventId: row.dupEvent } : null,
    isReply: row.isReply,
    blocked: listVerdict(row.matches ?? [], { own: row.ownAllow, project: row.projectAllow }),
    source: row.sourceId && row.sourceName ? { id: row.sourceId, name: row.sourceName } : null,
  };
}
