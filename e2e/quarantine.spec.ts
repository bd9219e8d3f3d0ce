import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { OwnerSession } from "./pages/owner-session";
import { QuarantinePage } from "./pages/quarantine-page";

// Issue 16 (owner screens): a sender blocked on the Lists screen writes in over SMTP (real nodemailer into the
// instance's listener); the mail waits in Quarantine with the entry that blocked it, the owner releases it and an
// agent then sees it in the mailbox; the entry is removed again on the Lists screen.

type Inbox = { inbox_id: string; email: string };
type Threads = { threads: { thread_id: string; subject: string | null }[] };

test("a blocked sender's mail waits in Quarantine and is released into the mailbox (another one deleted); a list entry is added and removed", async ({
  page,
  apiKeys,
}) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const spammer = `spam-${suffix}.example`;
  const subject = `Cheap offers ${suffix}`;

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const key = await apiKeys.open().then(() => apiKeys.createKey(`e2e quarantine ${suffix}`, ["inbox_read", "inbox_create", "message_read"]));
  await apiKeys.closeDialog();
  const agent = await connectAgent(server.url, key);
  try {
    const inbox = await callTool<Inbox>(agent, "create_inbox", { username: `q-${suffix}` });
    const screens = new QuarantinePage(page);

    await screens.openLists(inbox.inbox_id);
    await expect(page.getByText("Senders of new mail to the mailbox.")).toBeVisible();
    await screens.addEntry(spammer, "Block", "sends offers nobody asked for");
    await expect(page.getByText(`${spammer} added to the block list`)).toBeVisible();
    await expect(screens.entryRow(spammer)).toContainText("sends offers nobody asked for");

    const outside = nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
    try {
      await outside.sendMail({ from: `Eve <eve@${spammer}>`, to: inbox.email, subject, text: "Buy now." });
      await outside.sendMail({ from: `Eve <eve@${spammer}>`, to: inbox.email, subject: `Last chance ${suffix}`, text: "Buy now!" });
    } finally {
      outside.close();
    }
    // Blocked mail is stored but hidden: the agent does not see it.
    expect((await callTool<Threads>(agent, "list_threads", { inboxId: inbox.inbox_id })).threads).toEqual([]);

    await screens.openQuarantine(inbox.inbox_id);
    const row = screens.row(subject);
    await expect(row).toContainText(`eve@${spammer}`);
    await expect(row).toContainText("Blocked");
    await expect(row).toContainText(`On this mailbox's receive block list: ${spammer}`);
    await screens.delete(`Last chance ${suffix}`);
    await expect(page.getByText("Message deleted")).toBeVisible();
    await expect(screens.row(`Last chance ${suffix}`)).toHaveCount(0);
    await screens.release(subject);
    await expect(page.getByText(`Released to ${inbox.email}`)).toBeVisible();
    await expect(screens.row(subject)).toHaveCount(0);
    await expect(page.getByText("Nothing quarantined matches these filters")).toBeVisible();

    const threads = await callTool<Threads>(agent, "list_threads", { inboxId: inbox.inbox_id });
    expect(threads.threads.map((t) => t.subject)).toEqual([subject]);

    await screens.openLists(inbox.inbox_id);
    await screens.removeEntry(spammer);
    await expect(page.getByText(`${spammer} removed from this mailbox's receive block list`)).toBeVisible();
    await expect(screens.entryRow(spammer)).toHaveCount(0);
    await expect(page.getByText("Empty: no address or domain is refused here.")).toBeVisible();
  } finally {
    await agent.close();
  }
});
