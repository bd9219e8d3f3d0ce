import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { updateInbox } from "@/lib/tools/mailboxes/update-inbox";
import { call } from "./inbox-test-helpers";
import { relaySinkFixture } from "./relay-sink-fixture";

/** The name a message goes out under is the one it was stored with, whatever the mailbox is called by delivery time. */
const f = relaySinkFixture("Sender name");

describe("a mailbox renamed between two sends", () => {
  it("sends the second under its new name at once: the wire From and the stored from_name agree", async () => {
    const sender = await seedMailbox(f.p.project.id);
    await call(updateInbox, f.p.mcp, { inboxId: sender.id, displayName: "Old Name" });
    await call(sendMessage, f.p.mcp, { inboxId: sender.id, to: ["carol@example.org"], subject: "One", text: "x" });
    await drainJobs();
    await call(updateInbox, f.p.mcp, { inboxId: sender.id, displayName: "Nouveau Nom Édité" });
    const sent = await call(sendMessage, f.p.mcp, { inboxId: sender.id, to: ["carol@example.org"], subject: "Two", text: "x" });
    await drainJobs();
    const [row] = await (await getDb())
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.id, sent.message_id as string));
    expect(row.fromName).toBe("Nouveau Nom Édité");
    // Before: the delivery's 5-second memo of the mailbox put the old name on the wire.
    const from =
      f.sink.received
        .at(-1)
        ?.raw.toString("utf8")
        .replace(/\r\n[ \t]/g, " ")
        .split("\r\n")
        .find((l) => l.startsWith("From:")) ?? "";
    expect(from).not.toContain("Old Name");
    expect(from).toMatch(/^From: =\?UTF-8\?Q\?Nouveau_Nom_=C3=89dit=C3=A9\?= +<box-/);
  });
});
