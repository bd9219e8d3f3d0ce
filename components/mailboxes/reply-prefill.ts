import type { ComposePrefill } from "@/components/mailboxes/compose-dialog";
import type { MessageView } from "@/lib/mail/messages/message-view";
import { forwardSubject } from "@/lib/mail/send/forward-request";
import { replySubject } from "@/lib/mail/send/reply-request";

const bare = (from: string | null) => (from ? (/<([^>]+)>$/.exec(from)?.[1] ?? from) : null);

function distinct(list: readonly string[], minus: readonly string[]) {
  const seen = new Set(minus.map((a) => a.toLowerCase()));
  return list.filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
}

/**
 * What Reply, Reply all and Forward start with, by replyRequest's rules (Reply-To, else From; our own sent message
 * goes back to its recipients; reply-all adds to and cc without our own address), so the form shows the recipients
 * the send will use and the owner can change them.
 */
export function replyPrefills(own: string, m: MessageView): Record<"reply" | "reply_all" | "forward", ComposePrefill> {
  const ours = m.direction === "outbound";
  const from = bare(m.from);
  const primary = ours ? m.to : m.replyTo.length > 0 ? m.replyTo : from ? [from] : [];
  const to = distinct(primary, ours ? [] : [own]);
  const cc = distinct(ours ? m.cc : [...m.to, ...m.cc], [own, ...to]);
  return {
    reply: { messageId: m.messageId, to, subject: replySubject(m.subject) },
    reply_all: { messageId: m.messageId, to, cc, subject: replySubject(m.subject) },
    forward: { messageId: m.messageId, subject: forwardSubject(m.subject) },
  };
}
