import type { Executor } from "@/lib/db/client";
import type { MailThread } from "@/lib/db/schema/mail";
import { addToThread } from "@/lib/mail/inbound/statements";

/** What a thread's summary needs of one message, inbound or outbound. */
export interface SummaryMessage {
  id: string;
  msgAt: Date;
  direction: "inbound" | "outbound";
  preview: string | null;
  from: string | null;
  /** To and Cc. */
  recipients: string[];
  sizeBytes: number;
  attachmentCount: number;
  labels: string[];
  category: string;
}

const MAX_PARTICIPANTS = 50;

/** A message shows in default lists when it is normal mail not in the trash; its thread's visible_at follows them. */
export const isVisible = (m: Pick<SummaryMessage, "category" | "labels">) => m.category === "normal" && !m.labels.includes("trash");

/**
 * An address as a thread's participants keep it, in lower case as PostgreSQL's lower() makes it (the summary's
 * rebuild, and ILIKE filters): JavaScript turns İ into i + U+0307, an address nobody wrote, which a `senders`
 * filter then never matched.
 */
const folded = (a: string) => a.toLowerCase().replace(/i\u0307/g, "i");

const participants = (list: (string | null)[]) => [...new Set(list.filter((a): a is string => !!a).map(folded))].slice(0, MAX_PARTICIPANTS);

/** The summary columns of a thread that starts with this message (for its INSERT). */
export function newThreadSummary(m: SummaryMessage) {
  return {
    messageCount: 1,
    lastMessageAt: m.msgAt,
    lastMessageId: m.id,
    preview: m.preview,
    senders: participants([m.from]),
    recipients: participants(m.recipients),
    lastReceivedAt: m.direction === "inbound" ? m.msgAt : null,
    lastSentAt: m.direction === "outbound" ? m.msgAt : null,
    sizeBytes: m.sizeBytes,
    attachmentCount: m.attachmentCount,
    labels: [...new Set(m.labels)].sort(),
    visibleAt: isVisible(m) ? m.msgAt : null,
  } satisfies Partial<MailThread>;
}

/**
 * Adds a message to an existing thread's summary: one UPDATE however long the thread (statements.ts). The same
 * function serves inbound and outbound mail, so both keep one summary.
 */
export async function addToThreadSummary(tx: Executor, o: { projectId: string; threadId: string; message: SummaryMessage }): Promise<void> {
  const m = o.message;
  const rows = await addToThread(
    tx,
    o.projectId,
    o.threadId,
    m.msgAt.toISOString(),
    m.id,
    m.preview,
    JSON.stringify(participants([m.from])),
    JSON.stringify(participants(m.recipients)),
    m.direction === "inbound",
    m.sizeBytes,
    m.attachmentCount,
    JSON.stringify(m.labels),
    isVisible(m),
  );
  // The thread was read before the transaction (threading): if it was deleted since, fail so the sender retries.
  if (rows.length === 0) throw new Error(`thread ${o.threadId} no longer exists`);
}
