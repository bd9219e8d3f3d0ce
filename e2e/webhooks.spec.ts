import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import { OWNER, expect, server, test } from "./fixtures";
import { OwnerSession } from "./pages/owner-session";
import { WebhooksPage } from "./pages/webhooks-page";

// Issue 18 (the owner's Webhooks screen): a webhook pointed at a local receiver (the one 127.0.0.1 port the
// server may reach, global-setup.ts) that checks each delivery's Standard Webhooks signature; the secret is shown
// once, a test event arrives and its attempt shows in the log, Resend delivers the same webhook-id again, a
// rotation signs with both secrets, a custom header rides along, and the webhook is switched off.

type Received = { headers: IncomingHttpHeaders; body: string };

const verifies = (secret: string, r: Received) => {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

test("a webhook to a local receiver: secret once, test event in the log, resend, rotation with two signatures, headers, disable", async ({ page }) => {
  // The flow itself takes seconds; page loads on a 2-core machine shared with builds take the rest.
  test.setTimeout(120_000);
  const port = Number(process.env.BRYNTH_E2E_HOOK_PORT);
  test.skip(!port, "BRYNTH_E2E_HOOK_PORT is set by global-setup.ts");
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("got it");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${port}/hooks/${randomUUID().slice(0, 8)}`;
  try {
    await new OwnerSession(page).signIn(OWNER, server.setupUrl);
    const screen = new WebhooksPage(page);
    await screen.open();

    const secret = await screen.create(url, ["message.sent"]);
    expect(secret).toMatch(/^whsec_/);
    const row = screen.row(url);
    await expect(row).toContainText("Owner");
    await expect(row).toContainText("every mailbox");
    await expect(row).toContainText("message.received");
    await expect(row).toContainText("message.sent");
    await expect(row).toContainText("enabled");
    // Shown once: nothing on the page holds it any more.
    await expect(page.getByText(secret)).toHaveCount(0);

    await screen.sendTest(url);
    await screen.expectAttempts(1, url);
    expect(received).toHaveLength(1);
    const first = received[0] as Received;
    expect(verifies(secret, first)).toBe(true);
    const eventId = String(first.headers["webhook-id"]);
    expect(eventId).toMatch(/^mev_test_/);
    const attempt = screen.attempts(url).first();
    await expect(attempt).toContainText("200");
    await expect(attempt).toContainText("got it");
    await expect(attempt).toContainText("message.received");
    await expect(attempt).toContainText(eventId);
    await expect(attempt).toContainText(/\d+ ms/);
    await expect(row).toContainText("200");

    await attempt.getByRole("button", { name: `Resend message.received ${eventId}` }).click();
    await expect(page.getByText("Delivery of message.received queued again")).toBeVisible();
    await screen.expectAttempts(2, url);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);

    const rotated = await screen.rotate(url);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await screen.addHeader(url, "X-Receiver-Token", "e2e-token");
    await expect(row).toContainText("1 custom header");
    await expect(row).toContainText("two signatures until");
    await screen.sendTest(url);
    await screen.expectAttempts(3, url);
    const third = received[2] as Received;
    expect(String(third.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(rotated, third)).toBe(true);
    expect(verifies(secret, third)).toBe(true);
    expect(third.headers["x-receiver-token"]).toBe("e2e-token");

    // The delivery log's filters live in the URL: nothing failed for this webhook.
    await page.getByLabel("Webhook", { exact: true }).selectOption({ label: url });
    await page.getByLabel("Outcome").selectOption("failed");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/outcome=failed/);
    await expect(page.getByText("No attempts match these filters")).toBeVisible();

    await row.getByRole("switch", { name: `Disable ${url}` }).click();
    await expect(page.getByText("Webhook disabled")).toBeVisible();
    await expect(row).toContainText("disabled by the owner");
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
