import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { shot } from "./screenshots";
import { EventsPage } from "./pages/events-page";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";

// A source added in the UI, a delivery signed by the real `stripe` library, the event live on the Events screen, an
// agent claiming and acking it over MCP, the event shown as done.
const stripe = new Stripe("sk_test_unused");

test("a signed webhook appears live on Events, an MCP agent claims and acks it, and it shows as done", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const sourceName = `stripe-e2e-${suffix}`;
  const eventType = `invoice.paid.e2e_${suffix}`;
  const secret = `whsec_${randomBytes(24).toString("hex")}`;

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e inbox ${suffix}`, ["inbox:read", "inbox:write"]));
  await apiKeys.closeDialog();

  const sources = new SourcesPage(page);
  await sources.open();
  const hookUrl = await sources.addWebhookSource({ name: sourceName, verification: "Stripe", secret });
  expect(new URL(hookUrl).origin).toBe(server.url);
  await expect(page.getByRole("cell").filter({ hasText: sourceName })).toBeVisible();
  await shot(page, "sources");

  const events = new EventsPage(page);
  await events.open();
  await events.waitUntilLive();
  await expect(events.row(eventType)).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  const payload = JSON.stringify({ id: `evt_e2e_${suffix}`, type: eventType, data: { object: { amount: 1200 } } });
  // A wrong signature is refused and never shows up.
  const forged = await fetch(hookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" }) },
    body: payload,
  });
  expect(forged.status).toBeGreaterThanOrEqual(400);
  const res = await fetch(hookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    body: payload,
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);

  // Live: no reload — the SSE stream re-renders the open page, and a marker set on the window survives.
  await expect(events.row(eventType)).toHaveCount(1);
  await expect(events.row(eventType)).toContainText(sourceName);
  await expect(events.row(eventType)).toContainText("pending");
  expect(await sameDocument()).toBe(true);
  await shot(page, "events-pending");

  const agent = await connectAgent(server.url, agentKey);
  try {
    const listed = await callTool<{ events: { id: string; type: string; source: string }[] }>(agent, "inbox_list", { source: sourceName });
    const mine = listed.events.filter((e) => e.type === eventType);
    expect(mine).toHaveLength(1);
    const eventId = mine[0].id;

    const claimed = await callTool<{ id: string; lease_token: string; status: string }>(agent, "inbox_claim", { event_id: eventId });
    expect(claimed.id).toBe(eventId);
    expect(claimed.lease_token).toBeTruthy();
    await expect(events.row(eventType)).toContainText("claimed");

    const acked = await callTool<{ event_id: string; status: string; repeated: boolean }>(agent, "inbox_ack", {
      event_id: eventId,
      lease_token: claimed.lease_token,
      result: { handled_by: "e2e" },
    });
    expect(acked).toMatchObject({ event_id: eventId, status: "done", repeated: false });
  } finally {
    await agent.close();
  }

  // Still live, then through the status filter.
  await expect(events.row(eventType)).toContainText("done");
  expect(await sameDocument()).toBe(true);
  await events.showStatus("done");
  await expect(events.row(eventType)).toHaveCount(1);
  await shot(page, "events-done");
  await events.showStatus("pending");
  await expect(events.row(eventType)).toHaveCount(0);

  // The event's page: payload, headers and its claim history.
  await events.open({ status: "done" });
  await events.row(eventType).getByRole("link").first().click();
  await expect(page.getByText("handled_by").first()).toBeVisible();
  await shot(page, "event-detail");
});
