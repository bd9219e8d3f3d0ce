import { and } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { keysetAfter, type PageKey } from "@/lib/db/keyset";
import { mailMessages } from "@/lib/db/schema/mail";
import { readInScope } from "@/lib/mail/messages/mail-scope";
import { messagePage } from "@/lib/mail/messages/message-page";
import { scopeCondition } from "@/lib/mail/messages/match-filters";
import { messageItemView } from "@/lib/mail/messages/message-view";
import { searchMatch } from "@/lib/mail/messages/search-match";

/**
 * Messages matching `q` in a mailbox (or the key's scope), newest first by (msg_at, id). The planner walks the
 * (mailbox_id, msg_at, id) index for common terms and takes a GIN bitmap of (mailbox_id, search) for rare ones and
 * phrases; both stay bounded.
 */
export async function searchMessages(
  db: Executor,
  opts: { actor: Actor; inboxId?: string; q: string; before?: Date; after?: Date; limit: number; page: PageKey | null },
) {
  const m = mailMessages;
  const rows = await readInScope(db, opts.actor, opts.inboxId, (scope) => {
    const where = [scopeCondition(m, scope), ...searchMatch(opts.q, opts), opts.page ? keysetAfter(m.msgAt, m.id, opts.page, false) : undefined];
    return messagePage(db, { where: and(...where), ascending: false, limit: opts.limit, bodies: false });
  });
  return rows.map((r) => ({ pageAt: r.pageAt, id: r.id, view: messageItemView(r, r.attachments) }));
}
