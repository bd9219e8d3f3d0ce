import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";

/**
 * The search vector cut the body and the subject but took the participants whole: a 1.5 MB message (well under
 * MAIL_MAX_MESSAGE_BYTES) whose To lists 50,000 addresses passed PostgreSQL's 1 MB tsvector limit, and the message
 * could never be stored (the sender got 451 for days; found by helper-119). The participants' part is cut too
 * (migration 0039).
 */
it("a message with a very long To header is stored", async () => {
  const seeded = await seedProject({ name: "BigTo" });
  const box = await seedMailbox(seeded.project.id);
  const to = [box.address, ...Array.from({ length: 50000 }, (_, i) => `r${i}x${(i * 7919).toString(36)}@d${i % 997}.example`)].join(",\r\n ");
  const raw = Buffer.from(`From: a@example.org\r\nTo: ${to}\r\nSubject: hi\r\nMessage-ID: <big-to@example.org>\r\n\r\nhello\r\n`);
  await receiveMessage(raw, { mailFrom: "a@example.org", recipients: [box], remote: "local" });
  const rows = await (await getDb())
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, seeded.project.id), eq(mailMessages.mailboxId, box.id)));
  expect(rows).toHaveLength(1);
}, 120_000);
