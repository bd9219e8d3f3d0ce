import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { startRelaySink, type RelaySink } from "./relay-sink";
import { shot } from "./screenshots";
import { ownerAuth, rest } from "./rest";

// Issue 19 §6 as an owner uses it: an outbound message opens its detail (body, headers, attachment, the relay's
// delivery and answer); a message held for approval links to its request from the list and from its detail; and a
// ledger subject (a request id, a disk path) opens the object it names.

type Sent = { status: string; batch_id: string; request_id: string | null; messages: { message_id: string; to: string; status: string }[] };
type Request = { request_id: string; status: string };

let sink: RelaySink;
test.beforeAll(async () => {
  sink = await startRelaySink();
});
test.afterAll(async () => {
  await sink?.close();
});

test("an outbound message opens its detail, a held one links to its request, and ledger subjects open their objects", async ({ page, apiKeys }) => {
  test.setTimeout(150_000);
  const id = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const key = await apiKeys.open().then(() => apiKeys.createKey(`e2e outbound ${id}`, ["send", "disk", "approvals"]));
  await apiKeys.closeDialog();
  const mail = new MailPage(page);
  await mail.open("Mail settings");
  await mail.saveRelay({ host: "127.0.0.1", port: sink.port });

  // Mail to one made-up domain waits for a person; the rest of the policy stays as it was (restored at the end).
  const agentAuth = `Bearer ${key}`;
  const heldDomain = `held-${id}.example`;
  const start = await rest<{ rules: Record<string, unknown>[] }>("/policy", { auth: agentAuth });
  const setPolicy = async (rules: Record<string, unknown>[]) => {
    const proposed = await rest<Request>("/policy", { method: "PUT", auth: agentAuth, body: { policy: { rules }, wait_seconds: 0 } });
    await rest(`/requests/${proposed.request_id}/decision`, { method: "POST", auth: ownerAuth, body: { outcome: "approve" } });
  };
  await setPolicy([{ id: `held-mail-${id}`, tool: "email_send", domains: [heldDomain], effect: "require_approval" }, ...start.rules]);

  const path = `outbound-${id}/terms.txt`;
  const sentSubject = `Your terms ${id}`;
  const heldSubject = `Held offer ${id}`;
  const to = `ada-${id}@example.net`;
  const heldTo = `bo@${heldDomain}`;
  const agent = await connectAgent(server.url, key);
  let sent: Sent;
  let held: Sent;
  try {
    await callTool(agent, "file_put", { path, content_base64: Buffer.from(`Terms ${id}\n`).toString("base64"), content_type: "text/plain" });
    sent = await callTool<Sent>(agent, "email_send", {
      to: [to],
      subject: sentSubject,
      text: `Hello Ada,\n\nthe terms ${id} are attached.\n`,
      attachments: [path],
    });
    expect(sent.status).toBe("queued");
    held = await callTool<Sent>(agent, "email_send", { to: [heldTo], subject: heldSubject, text: "An offer that needs a yes first.", wait_seconds: 0 });
    expect(held.status).toBe("pending");
    expect(held.request_id).toMatch(/^req_/);
  } finally {
    await agent.close();
  }
  await sink.waitFor((m) => m.mail.subject === sentSubject);

  // The list: the held message says it waits for approval and links to the request that decides it.
  await mail.open("Outbound mail");
  const heldRow = page.locator(`tr[data-message-id="${held.messages[0].message_id}"]`);
  await expect(heldRow).toContainText("pending");
  await heldRow.getByRole("link", { name: "Waiting for approval" }).click();
  await expect(page).toHaveURL(new RegExp(`/approvals/${held.request_id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(heldSubject);

  // The held message's detail says the same, with the same link.
  await page.goto(`/mail/outbound/${held.messages[0].message_id}`);
  await expect(page.getByRole("heading", { level: 1, name: heldSubject })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("This message waits for your approval.");
  await expect(page.getByRole("link", { name: "Open the approval request" })).toHaveAttribute("href", `/approvals/${held.request_id}`);

  // The sent message: from the list by its subject, to the body, headers, attachment and the relay's answer.
  await mail.open("Outbound mail");
  const sentRow = page.locator(`tr[data-message-id="${sent.messages[0].message_id}"]`);
  await expect(sentRow.getByRole("cell").nth(2)).toHaveText("sent", { timeout: 30_000 });
  await sentRow.getByRole("link", { name: sentSubject }).click();
  await expect(page).toHaveURL(new RegExp(`/mail/outbound/${sent.messages[0].message_id}$`));
  await expect(page.getByRole("heading", { level: 1, name: sentSubject })).toBeVisible();
  await expect(page.getByRole("region", { name: "Body" })).toContainText(`the terms ${id} are attached.`);
  await expect(page.getByText(to).first()).toBeVisible();
  await expect(page.getByRole("term").filter({ hasText: /^Message-ID$/ })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: new RegExp(`^<?${sent.messages[0].message_id}@`) })).toBeVisible();
  const attachment = page.getByRole("list", { name: "Attachments" }).getByRole("link", { name: "terms.txt" });
  await expect(attachment).toBeVisible();
  const download = await Promise.all([page.waitForEvent("download"), attachment.click()]).then(([d]) => d);
  expect(download.suggestedFilename()).toBe("terms.txt");
  const delivery = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(delivery).toHaveCount(1);
  await expect(delivery).toContainText("Relay");
  await expect(delivery).toContainText("sent");
  await expect(delivery).toContainText(to);
  await expect(delivery).toContainText(/250/);
  await expect(page.getByRole("note")).toHaveCount(0);
  await shot(page, "outbound-detail");

  // A message id that is not the project's is a 404, not an error.
  const missing = await page.goto("/mail/outbound/msg_doesnotexist000");
  expect(missing?.status()).toBe(404);

  // The ledger: a disk path opens its folder (req_… and the other id kinds are mapped in subject-href.test.ts; a held
  // email_send is ledgered under its batch, so no entry of this run has the request as its subject).
  await page.goto(`/ledger?${new URLSearchParams({ op: "file.put", subject: path })}`);
  await page.locator(`tbody a[href^="/disk?tab=files"]`).first().click();
  await expect(page).toHaveURL(/\/disk\?tab=files&dir=outbound-/);

  // The entry page links its subject to the object, and still offers every entry with that subject.
  await page.goto(`/ledger?${new URLSearchParams({ op: "file.put", subject: path })}`);
  await page
    .getByRole("link", { name: /^Entry \d+$/ })
    .first()
    .click();
  await expect(page.getByRole("link", { name: path })).toHaveAttribute("href", `/disk?tab=files&dir=${encodeURIComponent(`outbound-${id}/`)}`);
  await expect(page.getByRole("link", { name: "All entries" })).toBeVisible();

  // Leave nothing waiting: the owner refuses the held send, and the policy goes back to what it was.
  await rest(`/requests/${held.request_id}/decision`, { method: "POST", auth: ownerAuth, body: { outcome: "deny" } });
  await setPolicy(start.rules);
});
