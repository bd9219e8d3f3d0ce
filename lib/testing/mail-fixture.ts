import MailComposer from "nodemailer/lib/mail-composer";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailAttachments, mailboxes, mailListEntries, mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { storeOutboundFiles } from "@/lib/mail/outbound/store-outbound-files";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { defaultMailbox } from "@/lib/mail/project-address";

/** Ids of one received conversation (and a receive block entry `spammer.example` in its mailbox), for tests and for the placeholders of tool examples (`{{inbox}}`, …). */
export interface MailFixture {
  inbox: string;
  address: string;
  thread: string;
  message: string;
  attachment: string;
  /** A draft to the mailbox itself (sent locally, no relay needed) with one small file of its own. */
  draft: string;
  draftAttachment: string;
}

/** A raw RFC 5322 message, composed by nodemailer as a real client would send it. */
export async function rawMail(opts: {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  attachments?: { filename: string; content: string }[];
}): Promise<Buffer> {
  return new MailComposer({ ...opts, references: opts.references?.join(" ") }).compile().build();
}

/** A second mailbox on the instance's domain, beside the project address. */
export async function seedMailbox(projectId: string, localPart = `box-${newId("x").slice(2, 10).toLowerCase()}`) {
  const db = await getDb();
  const domain = await ensureDefaultDomain(db);
  const [row] = await db
    .insert(mailboxes)
    .values({ id: newId("mbx"), projectId, domainId: domain.id, localPart, address: `${localPart}@${domain.domain}` })
    .returning();
  return row;
}

/**
 * One inbound message with one attachment in a mailbox of the project (the project address unless given), received
 * through the real inbound pipeline, as if delivered locally.
 */
export async function seedReceivedMail(projectId: string, mailboxId?: string): Promise<MailFixture> {
  const db = await getDb();
  const mailbox = mailboxId ? (await db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)))[0] : await defaultMailbox(db, projectId);
  const raw = await rawMail({
    from: "Ada <ada@example.org>",
    to: mailbox.address,
    subject: "Quarterly numbers",
    text: "Hello,\n\nThe numbers are attached.\n\nAda",
    html: "<p>Hello,</p><p>The numbers are attached.</p><p>Ada</p>",
    attachments: [{ filename: "q3.csv", content: "quarter,revenue\nq3,42\n" }],
  });
  const [stored] = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: [mailbox], remote: "local" });
  const [message] = await db
    .select({ id: mailMessages.id, threadId: mailMessages.threadId })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.id, stored.messageId)));
  const [attachment] = await db.select({ id: mailAttachments.id }).from(mailAttachments).where(eq(mailAttachments.messageId, message.id));
  const draft = newId("drf");
  await db.insert(mailDrafts).values({ id: draft, projectId, mailboxId: mailbox.id, to: [mailbox.address], subject: "A draft", text: "Draft body." });
  const draftAttachment = newId("att");
  const [file] = await storeOutboundFiles(db, projectId, [{ name: "notes.txt", contentType: "text/plain", bytes: Buffer.from("draft notes\n") }]);
  await db.insert(mailAttachments).values({ ...file, id: draftAttachment, projectId, draftId: draft });
  // One list entry, so list-entry examples (get, delete) name something that exists (once per mailbox).
  await db
    .insert(mailListEntries)
    .values({
      id: newId("mle"),
      projectId,
      mailboxId: mailbox.id,
      direction: "receive",
      type: "block",
      entry: "spammer.example",
      entryType: "domain",
    })
    .onConflictDoNothing();
  return { inbox: mailbox.id, address: mailbox.address, thread: message.threadId, message: message.id, attachment: attachment.id, draft, draftAttachment };
}

/** A tool example with its `{{inbox}}`-style placeholders filled from a fixture, at any depth. */
export function fillExample(value: unknown, fixture: MailFixture): unknown {
  if (typeof value === "string") return value.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (name in fixture ? fixture[name as keyof MailFixture] : m));
  if (Array.isArray(value)) return value.map((v) => fillExample(v, fixture));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillExample(v, fixture)]));
  return value;
}
