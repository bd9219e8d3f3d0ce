import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { shot } from "./screenshots";
import { EventsPage } from "./pages/events-page";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";
import { ApprovalsPage } from "./pages/approvals-page";

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

/** Posts a Stripe-signed delivery; returns the event id. */
async function deliver(hookUrl: string, secret: string, body: Record<string, unknown>) {
  const payload = JSON.stringify({ id: `evt_${randomUUID()}`, ...body });
  const res = await fetch(hookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    body: payload,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { event_id: string }).event_id;
}

// The owner tells agent work from Brynth's bookkeeping: a decided request's request.resolved event stays out of the
// list and the Pending count until asked for; the tabs count what the Type filter shows.
test("request.resolved bookkeeping is hidden until asked for, and the status counts follow the Type filter", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const summary = `Pay supplier ${suffix} (80 €)?`;
  const secret = `whsec_${randomBytes(24).toString("hex")}`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e bookkeeping ${suffix}`, ["approvals"]));
  await apiKeys.closeDialog();
  const sources = new SourcesPage(page);
  await sources.open();
  const hookUrl = await sources.addWebhookSource({ name: `billing-${suffix}`, verification: "Stripe", secret });

  const agent = await connectAgent(server.url, agentKey);
  try {
    await callTool(agent, "ask_approval", { action: "pay", summary, amount: 80, wait_seconds: 0 });
  } finally {
    await agent.close();
  }
  const approvals = new ApprovalsPage(page);
  await approvals.open();
  await approvals.approve(summary);

  const events = new EventsPage(page);
  const pendingTab = () => page.getByRole("navigation", { name: "Status" }).getByRole("link", { name: /^pending\b/i });
  const tabCount = async (name: RegExp) =>
    Number(/(\d+)$/.exec((await page.getByRole("navigation", { name: "Status" }).getByRole("link", { name }).textContent()) ?? "")?.[1]);
  await events.open({ status: "pending" });
  await expect(events.row("request.resolved")).toHaveCount(0);
  const pendingWithout = await tabCount(/^pending\b/i);

  await page.getByRole("checkbox", { name: /Show request\.resolved/ }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]bookkeeping=1\b/);
  await expect(events.row("request.resolved").first()).toBeVisible();
  expect(await tabCount(/^pending\b/i)).toBeGreaterThan(pendingWithout);
  await expect(page.getByRole("checkbox", { name: /Show request\.resolved/ })).toBeChecked();
  // Unticking hides them again.
  await page.getByRole("checkbox", { name: /Show request\.resolved/ }).uncheck();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).not.toHaveURL(/bookkeeping=/);
  await expect(events.row("request.resolved")).toHaveCount(0);
  await expect(pendingTab()).toHaveText(new RegExp(`\\b${pendingWithout}$`));

  // Counts under the Type filter: two of one type, one of another, from this test's source.
  for (const type of [`invoice.paid.e2e_${suffix}`, `invoice.paid.e2e_${suffix}`, `invoice.voided.e2e_${suffix}`]) await deliver(hookUrl, secret, { type });
  await events.open();
  await page.getByLabel("Type", { exact: true }).fill(`invoice.paid.e2e_${suffix}`);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`type=invoice\\.paid\\.e2e_${suffix}`));
  await expect(events.rows()).toHaveCount(2);
  expect(await tabCount(/^all\b/i)).toBe(2);
  expect(await tabCount(/^pending\b/i)).toBe(2);
  expect(await tabCount(/^dead\b/i)).toBe(0);
  await page.getByLabel("Type", { exact: true }).fill(`invoice.*`);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(events.row(`invoice.voided.e2e_${suffix}`)).toHaveCount(1);
  expect(await tabCount(/^all\b/i)).toBe(await events.rows().count());
  await shot(page, "events-type-filter");
});

// Each source keeps its colour across a reload, a filter and the dark theme; ticks are even; the window fits the data.
test("the events chart keeps one colour per source across reloads, filters and themes, and fits its window to the data", async ({ page }) => {
  const suffix = randomUUID().slice(0, 8);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const sources = new SourcesPage(page);
  await sources.open();
  const names = [`alpha-${suffix}`, `beta-${suffix}`];
  const secrets = names.map(() => `whsec_${randomBytes(24).toString("hex")}`);
  for (const [i, name] of names.entries()) {
    const url = await sources.addWebhookSource({ name, verification: "Stripe", secret: secrets[i] });
    for (let n = 0; n <= i; n++) await deliver(url, secrets[i], { type: `chart.tick.e2e_${suffix}` });
  }

  const events = new EventsPage(page);
  const legendColor = async (name: string) => {
    const item = page.getByRole("list", { name: "Sources" }).getByRole("listitem").filter({ hasText: name });
    await expect(item).toHaveCount(1);
    return item.locator("[data-color]").getAttribute("data-color");
  };
  await events.open();
  const colors = [await legendColor(names[0]), await legendColor(names[1])];
  expect(colors[0]).toMatch(/^#[0-9a-f]{6}$/);
  expect(colors[0]).not.toBe(colors[1]);
  await page.reload();
  expect([await legendColor(names[0]), await legendColor(names[1])]).toEqual(colors);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  expect([await legendColor(names[0]), await legendColor(names[1])]).toEqual(colors);
  await shot(page, "events-chart-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Filtered to one source, its bars keep the colour.
  await events.open({ source: names[1] });
  await expect(page.locator(".recharts-bar-rectangle path").first()).toHaveAttribute("fill", colors[1] ?? "");

  // The window fits the data (all events of this run are recent). Even hour and count ticks are checked in
  // lib/charts/chart-helpers.test.ts: Recharts 3 renders its tick labels without the classes this spec could read.
  await expect(page.getByTestId("events-chart-title")).toContainText(/last (6|12|24) hours/);
});

// Event detail: nested JSON opens on demand, and the actions are the ones the event's state allows.
test("event detail expands nested JSON and offers requeue only once the event is dead", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const type = `customer.updated.e2e_${suffix}`;
  const secret = `whsec_${randomBytes(24).toString("hex")}`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e detail ${suffix}`, ["inbox:read", "inbox:write"]));
  await apiKeys.closeDialog();
  const sources = new SourcesPage(page);
  await sources.open();
  const sourceName = `crm-${suffix}`;
  const hookUrl = await sources.addWebhookSource({ name: sourceName, verification: "Stripe", secret });
  const city = `Lisbon-${suffix}`;
  const eventId = await deliver(hookUrl, secret, { type, data: { object: { customer: { address: { city } } } } });

  const events = new EventsPage(page);
  await events.open({ type });
  await events.row(type).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/events/${eventId}$`));
  const tree = page.getByRole("group", { name: "Payload" });
  await expect(tree).toBeVisible();
  await expect(tree.getByText(`"${city}"`)).toHaveCount(0);
  await page.getByRole("button", { name: "Expand all" }).click();
  await expect(tree.getByText(`"${city}"`)).toBeVisible();
  await page.getByRole("button", { name: "Collapse all" }).click();
  await expect(tree.getByText(`"${city}"`)).toHaveCount(0);

  const actions = page.getByTestId("event-actions");
  await expect(actions.getByRole("button", { name: "Requeue" })).toHaveCount(0);
  await expect(actions.getByRole("link", { name: "Ledger entries" })).toHaveAttribute("href", `/ledger?subject=${eventId}`);
  await actions.getByRole("link", { name: "Similar pending events" }).click();
  await expect(page).toHaveURL(/\/events\?status=pending&source=/);
  await expect(events.row(type)).toHaveCount(1);

  const agent = await connectAgent(server.url, agentKey);
  try {
    const claimed = await callTool<{ lease_token: string }>(agent, "inbox_claim", { event_id: eventId });
    await callTool(agent, "inbox_nack", { event_id: eventId, lease_token: claimed.lease_token, reason: "address not found", retry: false });
  } finally {
    await agent.close();
  }
  await page.goto(`/events/${eventId}`);
  await expect(page.getByText("address not found").first()).toBeVisible();
  await expect(actions.getByRole("link", { name: "Similar dead events" })).toBeVisible();
  await shot(page, "event-detail-dead");
  await actions.getByRole("button", { name: "Requeue" }).click();
  await expect(page.getByText(/Event requeued/)).toBeVisible();
  await expect(actions.getByRole("button", { name: "Requeue" })).toHaveCount(0);
  await expect(actions.getByRole("link", { name: "Similar pending events" })).toBeVisible();
});
