import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { AGENT_NAME, callTool, connectAgent } from "./mcp";
import { ApprovalsPage } from "./pages/approvals-page";
import { ChannelsPage } from "./pages/channels-page";
import { DecidePage } from "./pages/decide-page";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { VerifyPage } from "./pages/verify-page";
import { startRelaySink, type RelayedMessage } from "./relay-sink";

/** What ask_approval and request_status answer about a request. */
type RequestAnswer = { request_id: string; status: string; comment: string | null; decided_by: string | null; hint?: string };

// An agent asks over MCP and waits; the owner decides on the Approvals screen, or from the emailed link's page with
// no dashboard session; the agent gets the decision.

test("a request appears live on Approvals, the owner approves it, and the agent's waiting call returns at once", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const summary = `Refund order ${suffix} (30 €)?`;
  const details = `Refund 30 € to the card of order ${suffix}, as the customer asked. Cannot be undone once sent.`;
  const comment = "Fine, the customer is right.";

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e approvals ${suffix}`, ["approvals"]));
  await apiKeys.closeDialog();

  const approvals = new ApprovalsPage(page);
  await approvals.open();
  await approvals.waitUntilLive();
  await expect(approvals.card(summary)).toHaveCount(0);
  const pendingBefore = await approvals.navCount();
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  const agent = await connectAgent(server.url, agentKey);
  try {
    // Not awaited: the call waits on the server until someone decides (or 60 s pass).
    const asking = callTool<RequestAnswer>(agent, "ask_approval", {
      action: "refund",
      summary,
      details,
      risk: "medium",
      amount: 30,
      wait_seconds: 120, // longer than the test may run: only the decision can end it in time
    });
    let answered = false;
    asking.then(
      () => (answered = true),
      () => (answered = true),
    );

    // Live: no reload — the approvals stream re-renders the open page and the navigation's count.
    const card = approvals.card(summary);
    await expect(card).toBeVisible();
    await expect(card).toContainText(details);
    await expect(card).toContainText("refund");
    await expect(card).toContainText("Amount 30");
    await expect(card).toContainText(`Asked by ${AGENT_NAME}`);
    await approvals.expectNavCount(pendingBefore + 1);
    expect(await sameDocument()).toBe(true);
    expect(answered, "ask_approval returned before anyone decided").toBe(false);

    await approvals.approve(summary, comment);
    const answer = await asking;
    expect(answer).toMatchObject({ status: "approved", comment, decided_by: `owner:${OWNER.email}` });
  } finally {
    await agent.close();
  }

  await expect(approvals.card(summary)).toHaveCount(0);
  await approvals.expectNavCount(pendingBefore);
  await approvals.showHistory();
  const row = approvals.historyRow(summary);
  await expect(row).toContainText("approved");
  await expect(row).toContainText(OWNER.email);
  await expect(row).toContainText(AGENT_NAME);
});

test("the owner denies through the emailed link's page, the agent reads the decision, and the link works once", async ({ page, browser, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const label = `owner-mail-${suffix}`;
  const summary = `Delete the staging database ${suffix}?`;
  // A right-to-left override in the agent's text is written out, in the mail and on the link's page alike.
  const details = `Drops staging database ${suffix}\u202E to free disk space. Nothing in production depends on it. Cannot be undone.`;
  const shownDetails = details.replace("\u202E", "[U+202E]");
  const comment = "Not this week: QA still uses it.";
  const toOwner = (subject: string) => (m: RelayedMessage) => m.envelope.to.includes(OWNER.email) && m.mail.subject === subject;

  // The owner's address is outside this instance: its mail leaves through the relay, here a sink the test reads.
  const sink = await startRelaySink();
  // A mail client: the links are opened without the dashboard's session.
  const mailClient = await browser.newContext();
  try {
    await new OwnerSession(page).signIn(OWNER, server.setupUrl);
    const mail = new MailPage(page);
    await mail.open("Mail settings");
    await mail.saveRelay({ host: "127.0.0.1", port: sink.port });
    const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e email decide ${suffix}`, ["approvals"]));
    await apiKeys.closeDialog();

    // The owner channel is the dashboard itself; email needs a channel of its own, verified by a link.
    const channels = new ChannelsPage(page);
    await channels.open();
    await expect(channels.ownerRow()).toContainText("active");
    await channels.addEmailChannel({ address: OWNER.email, label });
    await expect(channels.row(label)).toContainText("waiting for verification");
    const verification = await sink.waitFor(toOwner("Confirm this address for Brynth approvals"));
    const inbox = await mailClient.newPage();
    await inbox.setContent(verification.mail.html || "");
    const verifyUrl = await inbox.getByRole("link", { name: "Confirm this address" }).getAttribute("href");
    await new VerifyPage(inbox).confirm(verifyUrl!, label);
    // Added by the owner, so confirming the address is enough to make it active.
    await channels.open();
    await expect(channels.row(label)).toContainText("active");

    const agent = await connectAgent(server.url, agentKey);
    try {
      const asked = await callTool<RequestAnswer>(agent, "ask_approval", { action: "db.drop", summary, details, risk: "high", wait_seconds: 0 });
      expect(asked.status).toBe("pending");
      expect(asked.hint).toContain("request_status");

      const request = await sink.waitFor(toOwner(`Approval requested: ${summary}`));
      expect(request.mail.text).toContain(shownDetails);
      await inbox.setContent(request.mail.html || "");
      const decideLink = inbox.getByRole("link", { name: "Open to decide" });
      const decideUrl = (await decideLink.getAttribute("href"))!;
      expect(new URL(decideUrl).origin).toBe(server.url);
      await decideLink.click();

      const decide = new DecidePage(inbox);
      await expect(inbox.getByText(summary)).toBeVisible();
      await expect(inbox.getByText(shownDetails)).toBeVisible();
      await expect(inbox.getByText(`for ${label}`)).toBeVisible();
      await decide.decide("Deny", comment);
      await expect(decide.outcome()).toHaveText(`Decided: denied by ${label} (channel).`);

      const status = await callTool<RequestAnswer>(agent, "request_status", { request_id: asked.request_id });
      expect(status).toMatchObject({ request_id: asked.request_id, status: "denied", comment, decided_by: `channel:${label}` });

      // Single use: the same link shows the outcome and offers nothing to decide.
      await inbox.goto(decideUrl);
      await expect(inbox.getByText(summary)).toBeVisible();
      await expect(decide.outcome()).toBeVisible();
      await expect(decide.decisionButtons()).toHaveCount(0);
    } finally {
      await agent.close();
    }

    const approvals = new ApprovalsPage(page);
    await approvals.open();
    await expect(approvals.card(summary)).toHaveCount(0);
    await approvals.showHistory();
    await expect(approvals.historyRow(summary)).toContainText("denied");
    await expect(approvals.historyRow(summary)).toContainText(label);

    // Later specs' requests go to the owner channel only, as before this test.
    await channels.open();
    await channels.remove(label);
  } finally {
    await mailClient.close();
    await sink.close();
  }
});
