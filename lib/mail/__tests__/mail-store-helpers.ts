import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailListEntries, mailMessages, mailThreads, messageColumns } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { newId, randomBase62 } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { queueMessages } from "@/lib/mail/outbound/queue-message";

/** Another mailbox of the project on MAIL_DOMAIN (create_inbox's row, without the tool). */
export async function addMailbox(projectId: string, local: string) {
  const db = await getDb();
  const domain = await ensureDefaultDomain(db);
  const localPart = `${local}-${randomBase62(6).toLowerCase()}`;
  const [row] = await db
    .insert(mailboxes)
    .values({ id: newId("mbx"), projectId, domainId: domain.id, localPart, address: `${localPart}@${domain.domain}` })
    .returning();
  return row;
}

export async function addListEntry(e: {
  projectId: string;
  mailboxId: string | null;
  direction: "receive" | "reply" | "send";
  type: "allow" | "block";
  entry: string;
}) {
  const db = await getDb();
  await db.insert(mailListEntries).values({ id: newId("mle"), ...e, entryType: e.entry.includes("@") ? "email" : "domain" });
}

/** The stored message of an RFC Message-ID (without brackets) in a mailbox. */
export async function messageByRfc(mailboxId: string, rfc: string) {
  const db = await getDb();
  const [row] = await db
    .select(messageColumns)
    .from(mailMessages)
    .where(and(eq(mailMessages.mailboxId, mailboxId), eq(mailMessages.rfcMessageId, rfc)));
  return row;
}

export async function messagesOf(mailboxId: string) {
  const db = await getDb();
  return db.select(messageColumns).from(mailMessages).where(eq(mailMessages.mailboxId, mailboxId)).orderBy(asc(mailMessages.msgAt));
}

export async function threadOf(threadId: string) {
  const db = await getDb();
  const [row] = await db.select().from(mailThreads).where(eq(mailThreads.id, threadId));
  return row;
}

export async function mailEventsOf(messageId: string) {
  const db = await getDb();
  return db.select().from(mailEvents).where(eq(mailEvents.messageId, messageId));
}

/**
 * email_send's rows for `to` from `mailbox`, queued as a send of the project address would be (no quota, no key),
 * in a transaction of their own: what a test needs to receive a reply or a report about mail of ours.
 */
export async function queueSent(
  mailbox: Parameters<typeof queueMessages>[1]["mailbox"],
  m: { to: string[]; subject: string; text: string; status?: Parameters<typeof queueMessages>[1]["status"] },
) {
  const db = await getDb();
  return db.transaction((tx) =>
    queueMessages(tx, { mailbox, html: null, attachments: [], batchId: null, replyToInbox: true, countsQuota: false, keyId: null, agent: null, ...m }),
  );
}
