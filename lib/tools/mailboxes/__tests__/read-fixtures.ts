import { getDb } from "@/lib/db/client";
import { mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";

/**
 * Rows for the read-path tests, written directly so each test controls categories, labels, participants and
 * times to the microsecond. The summary columns are computed as the store computes them (thread-summary.ts);
 * mail that must come through the real pipeline (Message-IDs, extraction, verdicts, attachments) uses
 * seedReceivedMail / receiveMessage instead.
 */
export interface RowMessage {
  at: string;
  subject?: string;
  from?: string;
  fromName?: string;
  to?: string[];
  cc?: string[];
  text?: string;
  labels?: string[];
  category?: "normal" | "spam" | "blocked" | "unauthenticated";
  rfcMessageId?: string;
  direction?: "inbound" | "outbound";
}

const visible = (m: RowMessage) => (m.category ?? "normal") === "normal" && !(m.labels ?? []).includes("trash");

/** One thread of these messages (oldest first) in a mailbox; returns the thread id and the message ids in order. */
export async function insertThread(projectId: string, mailboxId: string, messages: RowMessage[]) {
  const db = await getDb();
  const threadId = newId("thr");
  const ids = messages.map(() => newId("msg"));
  const last = messages.length - 1;
  const rows = messages.map((m, i) => ({
    id: ids[i],
    projectId,
    mailboxId,
    threadId,
    direction: m.direction ?? ("inbound" as const),
    status: m.direction === "outbound" ? ("sent" as const) : ("received" as const),
    rfcMessageId: m.rfcMessageId ?? `${ids[i]}@example.org`,
    fromAddress: m.from ?? "ann@example.org",
    fromName: m.fromName ?? null,
    to: m.to ?? ["box@example.test"],
    cc: m.cc ?? [],
    subject: m.subject ?? "Hello",
    text: m.text ?? "Hello there",
    html: null,
    extractedText: m.text ?? "Hello there",
    preview: (m.text ?? "Hello there").slice(0, 200),
    category: m.category ?? "normal",
    labels: m.labels ?? ["received"],
    msgAt: new Date(m.at),
    receivedAt: new Date(m.at),
    sizeBytes: (m.text ?? "Hello there").length + 200,
    createdAt: new Date(m.at),
    updatedAt: new Date(m.at),
  }));
  const visibleAt = messages.filter(visible).map((m) => m.at);
  await db.insert(mailThreads).values({
    id: threadId,
    projectId,
    mailboxId,
    subject: messages[0].subject ?? "Hello",
    baseSubject: (messages[0].subject ?? "Hello").toLowerCase(),
    messageCount: messages.length,
    lastMessageAt: new Date(messages[last].at),
    lastMessageId: ids[last],
    preview: rows[last].preview,
    senders: [...new Set(rows.map((r) => r.fromAddress.toLowerCase()))],
    recipients: [...new Set(rows.flatMap((r) => [...r.to, ...r.cc].map((a) => a.toLowerCase())))],
    sizeBytes: rows.reduce((n, r) => n + r.sizeBytes, 0),
    labels: [...new Set(rows.flatMap((r) => r.labels))].sort(),
    visibleAt: visibleAt.length ? new Date(visibleAt[visibleAt.length - 1]) : null,
    createdAt: new Date(messages[0].at),
    updatedAt: new Date(messages[last].at),
  });
  await db.insert(mailMessages).values(rows);
  return { threadId, messageIds: ids };
}
