import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { connectAgent } from "./mcp";
import { DraftsPage } from "./pages/drafts-page";
import { MailboxesPage } from "./pages/mailboxes-page";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { startRelaySink, type RelaySink } from "./relay-sink";
import { shot } from "./screenshots";

// Issue 17 §7 end to end: the send policy set in the mailbox's settings; an agent's send held for approval over
// the MCP SDK, shown exactly on Drafts, approved there and received by the relay exactly so (bcc only in the
// envelope), another rejected with a comment; and the owner's compose with a recipient refused as typed, then a
// send that arrives in another mailbox.

let sink: RelaySink;
test.beforeAll(async () => {
  sink = await startRelaySink();
});
test.afterAll(async () => {
  await sink?.close();
});

type ToolError = { code: string; message: string; fix: string };

/** send_message over MCP, which must answer an error (approval_required): the `{code, message, fix}` it carries. */
async function heldSend(agent: Awaited<ReturnType<typeof connectAgent>>, args: Record<string, unknown>): Promise<ToolError & { draftId: string }> {
  const res = await agent.callTool({ name: "send_message", arguments: args });
  expect(res.isError, JSON.stringify(res.content)).toBe(true);
  const text = (res.content as Array<{ type: string; text: string }>)[0].text;
  const err = JSON.parse(text) as ToolError & { error?: ToolError };
  const e = err.error ?? err;
  const draftId = /drf_[A-Za-z0-9]+/.exec(e.message)?.[0] ?? "";
  return { ...e, draftId };
}

test("an agent's send waits in Drafts for approval, the relay gets exactly what was shown, and a rejection keeps the comment", async ({ page, apiKeys }) => {
  test.setTimeout(150_000);
  const id = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const mail = new MailPage(page);
  await mail.open("Mail settings");
  await mail.saveRelay({ host: "127.0.0.1", port: sink.port });

  const mailboxes = new MailboxesPage(page);
  await mailboxes.open();
  const address = await mailboxes.createMailbox(`e2e-held-${id}`, `Held ${id}`);

  // The send policy, in the mailbox's settings: each option explained, the choice saved at once and kept.
  const settings = page.getByRole("region", { name: "Mailbox settings" });
  await expect(settings.getByLabel("Send policy")).toHaveValue("direct");
  await expect(settings).toContainText("Agents' sends go out at once.");
  await expect(settings).toContainText("Every send waits for your approval in Drafts.");
  await expect(settings).toContainText("Agents cannot send from this address.");
  await settings.getByLabel("Send policy").selectOption("approval");
  await expect(page.getByText(`${address}: send policy approval`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Mailbox settings" }).getByLabel("Send policy")).toHaveValue("approval");
  await shot(page, "mailbox-send-policy");

  const key = await apiKeys.open().then(() => apiKeys.createKey(`e2e sender ${id}`, ["message_send"]));
  await apiKeys.closeDialog();

  const drafts = new DraftsPage(page);
  await drafts.open();
  const before = await drafts.navCount();

  const to = `ada-${id}@example.net`;
  const cc = `bo-${id}@example.net`;
  const bcc = `audit-${id}@example.net`;
  const subject = `Invoice ${id}`;
  const body = `Hello Ada,\n\nyour invoice ${id} is attached.\n`;
  const attachment = `Invoice ${id}: 120 EUR\n`;
  const html = `<p>Hello Ada, your invoice <b>${id}</b> is attached.</p>`;
  const agent = await connectAgent(server.url, key);
  let held: Awaited<ReturnType<typeof heldSend>>;
  let rejected: Awaited<ReturnType<typeof heldSend>>;
  try {
    held = await heldSend(agent, {
      inboxId: address,
      to: [to],
      cc: [cc],
      bcc: [bcc],
      subject,
      text: body,
      html,
      attachments: [{ filename: "invoice.txt", contentType: "text/plain", content: Buffer.from(attachment).toString("base64") }],
    });
    rejected = await heldSend(agent, { inboxId: address, to: [to], subject: `Discount ${id}`, text: "50% off everything." });
  } finally {
    await agent.close();
  }
  expect(held.code).toBe("approval_required");
  expect(held.draftId).toMatch(/^drf_/);
  expect(held.message).toContain(held.draftId);
  expect(held.fix).toContain(held.draftId);
  expect(rejected.code).toBe("approval_required");

  // Drafts shows exactly what will go out; the navigation counts what waits.
  await page.reload();
  await drafts.expectNavCount(before + 2);
  const detail = await drafts.openDraft(subject, held.draftId);
  const details = detail.getByRole("definition");
  await expect(detail.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  await expect(details.filter({ hasText: to })).toHaveCount(1);
  await expect(details.filter({ hasText: cc })).toHaveCount(1);
  await expect(details.filter({ hasText: bcc })).toHaveCount(1);
  // The HTML part framed as received mail is (sandboxed, from /mail-html), the text part beside it.
  await expect(page.frameLocator(`iframe[title="Message: ${subject}"]`).getByText(`Hello Ada, your invoice ${id} is attached.`)).toBeVisible();
  await detail.getByText("Plain-text part").click();
  await expect(detail.getByText(`your invoice ${id} is attached.`)).toBeVisible();
  await expect(detail.getByRole("list", { name: "Attachments" })).toContainText("invoice.txt");
  await expect(detail.getByRole("list", { name: "Attachments" })).toContainText(`${Buffer.byteLength(attachment)} B`);
  await expect(detail.getByText(/^[0-9a-f]{64}$/)).toBeVisible();
  await shot(page, "drafts-approval");

  await detail.getByRole("button", { name: "Approve and send" }).click();
  await expect(page.getByText(`Approved: draft ${held.draftId} is being sent`)).toBeVisible();
  const got = await sink.waitFor((m) => m.mail.subject === subject);
  expect(got.envelope.to.sort()).toEqual([to, cc, bcc].sort());
  expect(got.mail.text?.replace(/\r\n/g, "\n").trim()).toBe(body.trim());
  expect(got.mail.html).toContain(html);
  expect(got.mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([["invoice.txt", attachment]]);
  const head = got.raw.toString("utf8").split(/\r\n\r\n/)[0];
  expect(head).toContain(to);
  expect(head).toContain(cc);
  expect(head).not.toContain(bcc);
  expect(head.match(/^Subject:/gim)).toHaveLength(1);
  await drafts.expectNavCount(before + 1);

  // Outbound shows the message with its relay delivery: all three envelope recipients, accepted.
  await mail.open("Outbound mail");
  const row = mail.outboundRow(to, subject);
  const relay = row.getByRole("list", { name: "Deliveries" }).getByRole("listitem").filter({ hasText: "Relay" });
  await expect(relay).toContainText(bcc);
  await expect(relay).toContainText("sent");

  // The other one is rejected with a comment: it moves to Failed and says why.
  await drafts.open();
  const second = await drafts.openDraft(`Discount ${id}`, rejected.draftId);
  await second.getByLabel("Comment").fill("We do not discount this quarter.");
  await second.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(`Rejected draft ${rejected.draftId}`)).toBeVisible();
  await expect(page).toHaveURL(/tab=failed/);
  await expect(drafts.row(`Discount ${id}`)).toContainText("rejected");
  await expect(drafts.detail(rejected.draftId)).toContainText("Rejected: We do not discount this quarter.");
  await drafts.expectNavCount(before);
  await shot(page, "drafts-rejected");
  expect(sink.messages.filter((m) => m.mail.subject === `Discount ${id}`)).toEqual([]);
});

test("compose refuses a display-name recipient as it is typed, then sends with an attachment to another mailbox", async ({ page }) => {
  test.setTimeout(120_000);
  const id = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const mailboxes = new MailboxesPage(page);
  await mailboxes.open();
  const target = await mailboxes.createMailbox(`e2e-to-${id}`, `Receiver ${id}`);
  const targetUrl = page.url();
  await mailboxes.open();
  await mailboxes.createMailbox(`e2e-from-${id}`, `Writer ${id}`);

  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  const toField = dialog.getByLabel("To", { exact: true });
  await toField.pressSequentially(`Bob <bob-${id}@example.com>`);
  await expect(dialog.getByText("is not a plain address")).toBeVisible();
  await expect(toField).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Send", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Fix the recipient marked in red first.");

  await toField.fill("");
  await toField.pressSequentially(target);
  await toField.press("Enter");
  await expect(dialog.getByRole("list", { name: "To recipients" })).toContainText(target);
  await expect(dialog.getByText("is not a plain address")).toHaveCount(0);
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  const subject = `Hello from the owner ${id}`;
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Message", { exact: true }).fill(`A note ${id}.`);
  await dialog.getByLabel("Attach files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from(`notes ${id}`) });
  await expect(dialog.getByRole("list", { name: "Attachments to send" })).toContainText("Ready");
  await shot(page, "compose");
  await dialog.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Message sent")).toBeVisible();
  await expect(dialog).toBeHidden();

  // Local delivery is a queued job: the thread arrives live, later than the click on a loaded machine.
  await page.goto(targetUrl);
  await expect(mailboxes.thread(subject)).toHaveCount(1, { timeout: 30_000 });
  await mailboxes.thread(subject).getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByText(`A note ${id}.`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Attachments" })).toContainText("notes.txt");

  // Reply from the receiving mailbox: the sender and `Re:` are filled in, and the answer joins the thread.
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  const reply = page.getByRole("dialog", { name: "Reply" });
  await expect(reply.getByRole("list", { name: "To recipients" })).toContainText(`e2e-from-${id}@`);
  await expect(reply.getByLabel("Subject")).toHaveValue(`Re: ${subject}`);
  await reply.getByLabel("Message", { exact: true }).fill(`Thanks ${id}!`);
  await reply.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Message sent")).toBeVisible();
  await expect(messages.locator("li[data-message-id]")).toHaveCount(2);

  // Schedule…: a draft with a time, listed under Scheduled on Drafts.
  await page.getByRole("button", { name: "New message" }).click();
  const later = page.getByRole("dialog", { name: "New message" });
  await later.getByLabel("To", { exact: true }).fill(`later-${id}@example.net`);
  await later.getByLabel("Subject").fill(`Later ${id}`);
  await later.getByLabel("Message", { exact: true }).fill("Tomorrow.");
  await later.getByRole("button", { name: "Schedule…" }).click();
  const when = new Date(Date.now() + 24 * 3600_000);
  const local = new Date(when.getTime() - when.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await later.getByLabel("Send at").fill(local);
  await later.getByRole("button", { name: "Schedule send" }).click();
  await expect(page.getByText(/^Scheduled for /)).toBeVisible();
  const drafts = new DraftsPage(page);
  await drafts.open("Scheduled");
  await expect(drafts.row(`Later ${id}`)).toContainText("scheduled");
});
