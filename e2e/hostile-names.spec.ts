import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";
import { rest } from "./rest";

// Names agents and strangers choose are shown as what they are. A right-to-left override (U+202E) made the disk file
// `invoice<RLO>fdp.exe` read `invoiceexe.pdf` in the Files table and its delete dialog (whose name nobody could type
// to confirm), and a sender `x<RLO>moc.lapyap@evil.example` read `xelpmaxe.live@paypal.com` in the thread list. Now
// the override is written out as [U+202E], inside <bdi>, and the delete dialog takes the name typed as shown.

const RLO = "\u202E";
const id = randomUUID().slice(0, 8);
const cleanups: Array<() => Promise<unknown>> = [];
let agent = "";
let agentSecret = "";

test.beforeAll(async () => {
  const key = await rest<{ id: string; secret: string }>("/keys", {
    method: "POST",
    body: {
      name: `e2e hostile names ${id}`,
      scopes: ["approvals", "disk", "inbox_create", "inbox_delete", "message_send", "webhook_create", "webhook_delete"],
    },
  });
  cleanups.push(() => rest(`/keys/${key.id}`, { method: "DELETE" }));
  agent = `Bearer ${key.secret}`;
  agentSecret = key.secret;
});

test.afterAll(async () => {
  for (const undo of cleanups.reverse()) await undo().catch(() => undefined);
});

test("a disk file named with a right-to-left override shows the override, and is deleted by typing the name as shown", async ({ page }) => {
  const folder = `hostile-${id}`;
  const path = `${folder}/invoice${RLO}fdp.exe`;
  const shown = "invoice[U+202E]fdp.exe";
  await rest(`/files/${encodeURIComponent(path)}`, { method: "PUT", auth: agent, body: { content_base64: Buffer.from("MZ").toString("base64") } });
  cleanups.push(() => rest(`/files/${encodeURIComponent(path)}`, { method: "DELETE", auth: agent }));

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await page.goto(`/disk?tab=files&dir=${encodeURIComponent(`${folder}/`)}`);
  const row = page.locator("tr[data-path]").filter({ hasText: "fdp.exe" });
  await expect(row).toHaveCount(1);
  const name = row.locator("td").first();
  await expect(name).toHaveText(shown);
  await expect(name.locator("bdi")).toHaveCount(1);

  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: `Download ${folder}/${shown}` }).click()]);
  // The header's filename* writes the override out as the screen does.
  expect(download.suggestedFilename()).not.toContain(RLO);
  await row.getByRole("button", { name: `Delete file ${folder}/${shown}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading")).toHaveText(`Delete file “${folder}/${shown}”?`);
  const confirm = dialog.getByRole("button", { name: "Delete file" });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole("textbox").fill(`${folder}/invoicefdp.exe`);
  await expect(confirm).toBeDisabled();
  await dialog.getByRole("textbox").fill(`${folder}/${shown}`);
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
});

test("a sender and subject with a right-to-left override show it in the thread list and the conversation", async ({ page }) => {
  const inbox = await rest<{ inbox_id: string; email: string }>("/inboxes", { method: "POST", auth: agent, body: { username: `hostile-${id}` } });
  cleanups.push(() => rest(`/inboxes/${inbox.inbox_id}`, { method: "DELETE", auth: agent }));
  const from = `Support ${RLO}lapyap <x${RLO}moc.lapyap@evil.example>`;
  const outside = nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
  try {
    const raw = [
      `From: ${from}`,
      `To: ${inbox.email}`,
      `Subject: Invoice ${id} ${RLO}fdp.exe`,
      `Message-ID: <hostile-${id}@evil.example>`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      `Please open invoice ${RLO}fdp.exe.`,
      "",
    ].join("\r\n");
    await outside.sendMail({ envelope: { from: "bounce@evil.example", to: [inbox.email] }, raw: Buffer.from(raw, "utf8") });
  } finally {
    outside.close();
  }

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  // Unauthenticated (no SPF or DKIM for evil.example), so it waits in the Quarantine, where the owner decides.
  const held = page.getByRole("row").filter({ hasText: `Invoice ${id}` });
  // Delivery is asynchronous: the screen is read again until the message is there.
  await expect(async () => {
    await page.goto(`/mail/quarantine?inbox=${inbox.inbox_id}`);
    await expect(held).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(held).toContainText("Support [U+202E]lapyap x[U+202E]moc.lapyap@evil.example");
  await expect(held).toContainText(`Invoice ${id} [U+202E]fdp.exe`);
  await expect(held).toContainText("Please open invoice [U+202E]fdp.exe.");

  await page.goto(`/mail/${inbox.inbox_id}?unauth=1`);
  const thread = page
    .getByRole("list", { name: "Threads" })
    .getByRole("listitem")
    .filter({ hasText: `Invoice ${id}` });
  await expect(thread).toContainText("x[U+202E]moc.lapyap@evil.example");
  await expect(thread).toContainText(`Invoice ${id} [U+202E]fdp.exe`);
  await expect(thread).toContainText("Please open invoice [U+202E]fdp.exe.");
  await thread.getByRole("link").click();
  const message = page.getByRole("list", { name: "Messages" }).getByRole("listitem").first();
  await expect(message).toContainText("x[U+202E]moc.lapyap@evil.example");
  await expect(page.getByRole("heading", { level: 2, name: `Invoice ${id} [U+202E]fdp.exe` })).toBeVisible();
});

test("an approval with long unbroken agent text keeps every decision button on a phone's screen", async ({ page }) => {
  // The agent's label (200 characters, from X-Brynth-Agent), action (100), summary (300), details and options, none
  // with a space: the card grew to the longest of them (2,900 px), so on a 390 px screen "Needs context" and the
  // options sat past its right edge and the page scrolled sideways.
  const res = await fetch(`${server.url}/api/v1/approvals`, {
    method: "POST",
    headers: { authorization: `Bearer ${agentSecret}`, "content-type": "application/json", "x-brynth-agent": "A".repeat(200) },
    body: JSON.stringify({
      action: "B".repeat(100),
      summary: `Wide${id}${"S".repeat(280)}`,
      details: "D".repeat(4000),
      options: ["\uFDFD".repeat(40), "W".repeat(40)],
      wait_seconds: 0,
    }),
  });
  expect(res.status).toBe(200);
  const { request_id } = (await res.json()) as { request_id: string };
  cleanups.push(() => rest(`/requests/${request_id}/decision`, { method: "POST", body: { outcome: "deny" } }));

  await page.setViewportSize({ width: 390, height: 844 });
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  for (const url of ["/approvals", `/approvals/${request_id}`]) {
    await page.goto(url);
    const card = page.locator(`article[data-request-id="${request_id}"]`);
    await expect(card).toBeVisible();
    for (const name of [/^Approve/, /^Deny/, /^Needs context/, /^1/, /^2/]) {
      // Within the screen's width, whatever the scroll down to it: nothing may be reachable only by scrolling sideways.
      const { left, right } = await card.getByRole("button", { name }).evaluate((b) => b.getBoundingClientRect().toJSON() as DOMRect);
      expect({ name: String(name), left: left >= 0, right: right <= 390 }).toEqual({ name: String(name), left: true, right: true });
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${url} scrolls sideways`).toBeLessThanOrEqual(0);
  }
});

test("an approval's details and action, a mailbox's display name, an outbound message and a task note show a right-to-left override", async ({ page }) => {
  // What the owner decides on: the details and action of a request (an IBAN whose digits an override turns round)
  // were shown as raw text on the Approvals screen and the request's page, and so were the subject, sender and
  // recipients of an outbound message (the page a held message links to), a mailbox's display name and the note of
  // a saved task state.
  const asked = await rest<{ request_id: string }>("/approvals", {
    method: "POST",
    auth: agent,
    body: { action: `pay ${RLO}llA`, summary: `Pay invoice ${id}`, details: `To IBAN DE89 ${RLO}3704 0044`, wait_seconds: 0 },
  });
  cleanups.push(() => rest(`/requests/${asked.request_id}/decision`, { method: "POST", body: { outcome: "deny" } }));
  const inbox = await rest<{ inbox_id: string; email: string }>("/inboxes", {
    method: "POST",
    auth: agent,
    body: { username: `hostile-out-${id}`, display_name: `Support ${RLO}lapyap` },
  });
  cleanups.push(() => rest(`/inboxes/${inbox.inbox_id}`, { method: "DELETE", auth: agent }));
  const sent = await rest<{ message_id: string }>(`/inboxes/${inbox.inbox_id}/messages/send`, {
    method: "POST",
    auth: agent,
    body: {
      // An address on this instance: no relay needed.
      to: [inbox.email],
      subject: `Invoice ${id} ${RLO}fdp.exe`,
      text: "Attached.",
    },
  });

  const task = `hostile-${id}`;
  await rest(`/state/${task}`, { method: "PUT", auth: agent, body: { state: { step: 1 }, note: `Paid ${RLO}0001 EUR` } });
  cleanups.push(() => rest(`/kv/${encodeURIComponent(`state/${task}`)}`, { method: "DELETE", auth: agent }));

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await page.goto(`/disk?tab=states&key=${encodeURIComponent(`state/${task}`)}`);
  await expect.soft(page.getByRole("row").filter({ hasText: task })).toContainText("Paid [U+202E]0001 EUR");
  for (const url of ["/approvals", `/approvals/${asked.request_id}`]) {
    await page.goto(url);
    const card = page.locator(`article[data-request-id="${asked.request_id}"]`);
    await expect.soft(card, url).toContainText("To IBAN DE89 [U+202E]3704 0044");
    await expect.soft(card, url).toContainText("pay [U+202E]llA");
  }
  await page.goto(`/mail/${inbox.inbox_id}`);
  await expect.soft(page.getByRole("heading", { level: 1 })).toHaveText("Support [U+202E]lapyap");
  await page.goto(`/mail/outbound/${sent.message_id}`);
  await expect.soft(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${id} [U+202E]fdp.exe`);
});

test("a webhook URL, a channel label and an OAuth client name with a right-to-left override show it", async ({ page }) => {
  const hook = await rest<{ webhook_id: string }>("/webhooks", {
    method: "POST",
    auth: agent,
    body: { url: `https://hooks.example.com/${id}/${RLO}fdp.exe`, event_types: ["message.received"] },
  });
  cleanups.push(() => rest(`/webhooks/${hook.webhook_id}`, { method: "DELETE", auth: agent }));
  const channel = await rest<{ channel_id: string }>("/channels", {
    method: "POST",
    auth: agent,
    body: { kind: "email", address: `approver-${id}@brynth.localhost`, label: `ops${RLO}nimda` },
  });
  cleanups.push(() => rest(`/channels/${channel.channel_id}`, { method: "DELETE", auth: agent }));
  // Anyone may register an OAuth client (RFC 7591) and name it; the owner reads that name on the consent page.
  const redirect = "http://127.0.0.1:9/callback";
  const registered = await fetch(`${server.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [redirect], client_name: `Claude${RLO} Desktop`, token_endpoint_auth_method: "none" }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await page.goto("/mail/webhooks");
  await expect.soft(page.getByRole("row").filter({ hasText: id })).toContainText(`https://hooks.example.com/${id}/[U+202E]fdp.exe`);
  await page.goto("/channels");
  await expect.soft(page.locator(`tr[data-channel-id="${channel.channel_id}"]`)).toContainText("ops[U+202E]nimda");
  const query = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: redirect,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: id,
  });
  await page.goto(`/oauth/consent?${query}`);
  await expect.soft(page.getByText("Connect Claude[U+202E] Desktop to Brynth?")).toBeVisible();
});

test("a webhook payload with a right-to-left override shows it in the JSON tree, the raw body and the headers", async ({ page }) => {
  const source = await rest<{ url: string }>("/owner/sources", { method: "POST", body: { type: "webhook", name: `hostile-${id}`, verification: "none" } });
  cleanups.push(() => rest(`/owner/sources/hostile-${id}`, { method: "DELETE" }));
  // A key and a value that read `"name": "paypal.com"` once the override has turned them round.
  const payload = JSON.stringify({ type: "ping", [`eman${RLO}`]: `moc.lapyap${RLO}` });
  const res = await fetch(source.url, { method: "POST", body: payload, headers: { "content-type": "application/json", "user-agent": "agent\u0085x" } });
  const { event_id } = (await res.json()) as { event_id: string };

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await page.goto(`/events/${event_id}`);
  const tree = page.getByRole("group", { name: "Payload" });
  await expect(tree).toContainText('"eman[U+202E]": "moc.lapyap[U+202E]"');
  await expect(tree.locator("bdi").filter({ hasText: "moc.lapyap" })).toHaveCount(1);
  await page.getByRole("tab", { name: "Raw" }).click();
  await expect(page.locator("pre code")).toContainText('"eman[U+202E]":"moc.lapyap[U+202E]"');
  await page.getByRole("tab", { name: /^Headers/ }).click();
  await expect(page.getByRole("row").filter({ hasText: "user-agent" })).toContainText("agent[U+0085]x");
});

test("an agent's reason for giving an event back shows a right-to-left override in the Events table", async ({ page }) => {
  const name = `nacked-${id}`;
  const source = await rest<{ url: string }>("/owner/sources", { method: "POST", body: { type: "webhook", name, verification: "none" } });
  cleanups.push(() => rest(`/owner/sources/${name}`, { method: "DELETE" }));
  const res = await fetch(source.url, { method: "POST", body: JSON.stringify({ type: "ping" }), headers: { "content-type": "application/json" } });
  const { event_id } = (await res.json()) as { event_id: string };
  // The key needs inbox:write: a key of its own, so the file's key keeps the scopes its tests name.
  const key = await rest<{ id: string; secret: string }>("/keys", { method: "POST", body: { name: `e2e nack ${id}`, scopes: ["inbox:write"] } });
  cleanups.push(() => rest(`/keys/${key.id}`, { method: "DELETE" }));
  const auth = { authorization: `Bearer ${key.secret}`, "content-type": "application/json" };
  expect((await fetch(`${server.url}/api/v1/events/${event_id}/claim`, { method: "POST", headers: auth, body: "{}" })).status).toBe(200);
  // Reads "refund approved" once the override has turned the rest round.
  const reason = `failed: ${RLO}devorppa dnufer`;
  const nack = await fetch(`${server.url}/api/v1/events/${event_id}/nack`, { method: "POST", headers: auth, body: JSON.stringify({ reason }) });
  expect(nack.status).toBe(200);

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  await page.goto(`/events?status=all&source=${name}`);
  await expect(page.getByRole("table")).toContainText("failed: [U+202E]devorppa dnufer");
});
