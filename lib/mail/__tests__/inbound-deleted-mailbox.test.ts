import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { rawMail, seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";

/**
 * The listener answers 250 before the intake stores, so a mailbox accepted at RCPT can be deleted before its copy is
 * written. Before: the copy was stored in the deleted mailbox, out of every list, and its message.received event
 * still went to the project's webhooks and live streams.
 */
let seeded: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  seeded = await seedProject({ name: "Inbound to a deleted mailbox" });
});

describe("mail accepted for a mailbox deleted before it was stored", () => {
  it("stores no copy and emits no event for that mailbox, and still delivers the other recipients' copies", async () => {
    const db = await getDb();
    const [doomed, kept] = await Promise.all([seedMailbox(seeded.project.id), seedMailbox(seeded.project.id)]);
    // The rows as resolveRecipient read them at RCPT, before the delete.
    const accepted = await db
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.projectId, seeded.project.id)));
    const rcpt = [doomed.id, kept.id].map((id) => accepted.find((m) => m.id === id)!);
    await db.transaction((tx) => deleteMailbox(tx, { actor: seeded.actor, inboxId: doomed.id }));

    const raw = await rawMail({ from: "ada@example.org", to: [doomed.address, kept.address].join(", "), subject: "Late", text: "Arrived late." });
    const stored = await receiveMessage(raw, { mailFrom: "ada@example.org", recipients: rcpt, remote: "local" });
    expect(stored).toHaveLength(1);
    const copies = await db.select().from(mailMessages).where(eq(mailMessages.subject, "Late"));
    expect(copies.map((m) => m.mailboxId)).toEqual([kept.id]);
    const events = await db.select().from(mailEvents).where(eq(mailEvents.projectId, seeded.project.id));
    expect(events.filter((e) => e.mailboxId === doomed.id)).toEqual([]);
    expect(events.filter((e) => e.mailboxId === kept.id && e.type === "message.received")).toHaveLength(1);
  });
});
