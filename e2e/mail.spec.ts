import { randomUUID } from "node:crypto";
import { authenticate } from "mailauth";
import nodemailer from "nodemailer";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { EventsPage } from "./pages/events-page";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";
import { startRelaySink, type RelaySink } from "./relay-sink";

// Issue 5 end to end: the relay set up and tested on Mail settings, the email source added on Sources, a mail from
// outside (real nodemailer over SMTP) live on Events, an MCP agent answering it with email_send, the reply sent on
// Outbound mail and arriving at the relay DKIM-signed with the key the Domains screen publishes.

let sink: RelaySink;
test.beforeEach(async () => {
  sink = await startRelaySink();
});
test.afterEach(async () => {
  await sink.close();
});

type Claimed = { id: string; lease_token: string; payload: { from: string; subject: string; address: string } };
type Sent = { status: string; messages: { message_id: string; to: string; status: string }[] };

test("mail to the project address is an event, and an agent's email_send reply leaves signed through the relay", async ({ page, apiKeys }) => {
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const sourceName = `mail-e2e-${suffix}`;
  const customer = `customer-${suffix}@example.org`;
  const subject = `Where is my order ${suffix}?`;
  const replySubject = `Re: ${subject}`;

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e mail ${suffix}`, ["inbox:read", "inbox:write", "send"]));
  await apiKeys.closeDialog();

  // Relay settings are the project's, shared with other specs on this server: set ours now, and prove it works.
  const mail = new MailPage(page);
  await mail.open("Mail settings");
  await mail.saveRelay({ host: "127.0.0.1", port: sink.port });
  const testTo = `relay-check-${suffix}@example.net`;
  await expect(await mail.sendTestMessage(testTo)).toContainText("Accepted by the relay");
  const probe = await sink.waitFor((m) => m.envelope.to.includes(testTo));
  expect(probe.mail.subject).toBe("Brynth relay test");

  const sources = new SourcesPage(page);
  await sources.open();
  const address = await sources.addEmailSource(sourceName);
  await expect(page.getByRole("row").filter({ hasText: sourceName })).toContainText(address);
  const domain = address.split("@")[1];

  const events = new EventsPage(page);
  await events.open({ source: sourceName });
  await events.waitUntilLive();
  await expect(events.row("email.received")).toHaveCount(0);

  const outside = nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
  try {
    await outside.sendMail({ from: `Casey Customer <${customer}>`, to: address, subject, text: "Hello, my order has not arrived yet. Can you check?" });
  } finally {
    outside.close();
  }

  // Live: the open Events page re-renders when the event arrives; its detail page shows who wrote and about what.
  await expect(events.row("email.received")).toHaveCount(1);
  await expect(events.row("email.received")).toContainText("pending");
  await events.row("email.received").getByRole("link", { name: "email.received" }).click();
  await expect(page.getByRole("heading", { name: "email.received", level: 1 })).toBeVisible();
  const payload = page.getByRole("group", { name: "Payload" });
  await expect(payload).toContainText(`"from": "${customer}"`);
  await expect(payload).toContainText(`"subject": "${subject}"`);

  const agent = await connectAgent(server.url, agentKey);
  try {
    const listed = await callTool<{ events: { id: string }[] }>(agent, "inbox_list", { source: sourceName, type: "email.received" });
    expect(listed.events).toHaveLength(1);
    const claimed = await callTool<Claimed>(agent, "inbox_claim", { event_id: listed.events[0].id });
    expect(claimed.payload).toMatchObject({ from: customer, subject, address });

    const sent = await callTool<Sent>(agent, "email_send", {
      to: [claimed.payload.from],
      subject: replySubject,
      text: "Thanks for writing: your order left our warehouse this morning.",
    });
    expect(sent.status).toBe("queued");
    expect(sent.messages).toMatchObject([{ to: customer }]);
    const acked = await callTool<{ status: string }>(agent, "inbox_ack", {
      event_id: claimed.id,
      lease_token: claimed.lease_token,
      result: { replied_with: sent.messages[0].message_id },
    });
    expect(acked.status).toBe("done");
  } finally {
    await agent.close();
  }

  // The Outbound mail screen refreshes itself until the delivery is done.
  await mail.open("Outbound mail");
  await expect(page.getByText(`via 127.0.0.1:${sink.port}`)).toBeVisible();
  const row = mail.outboundRow(customer, replySubject);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(2)).toHaveText("sent", { timeout: 30_000 });

  const reply = await sink.waitFor((m) => m.mail.subject === replySubject);
  expect(reply.envelope.to).toEqual([customer]);
  expect(reply.mail.to).toMatchObject({ value: [{ address: customer }] });
  expect(reply.mail.from?.value[0].address).toBe(address);
  expect(reply.mail.text).toContain("your order left our warehouse");

  // DKIM checked the way a receiver would, with DNS answering only the record the Domains screen asks to publish.
  await mail.open("Domains");
  const dkim = await mail.dkimRecord(domain);
  const resolver = async (name: string, rrtype: string) => {
    if (rrtype === "TXT" && name.toLowerCase() === dkim.name.toLowerCase()) return [[dkim.value]];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  const verdict = await authenticate(reply.raw, {
    ip: "127.0.0.1",
    helo: "relay.example.net",
    sender: reply.envelope.from,
    resolver,
    disableArc: true,
    disableBimi: true,
  });
  const signatures = verdict.dkim?.results ?? [];
  expect(signatures.map((s) => ({ result: s.status?.result, domain: s.signingDomain, selector: s.selector }))).toContainEqual({
    result: "pass",
    domain,
    selector: dkim.name.split("._domainkey.")[0],
  });
});
