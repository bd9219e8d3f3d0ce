import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { OWNER, expect, server, test } from "./fixtures";
import { AGENT_NAME, callTool, connectAgent } from "./mcp";
import { shot } from "./screenshots";
import { ApprovalsPage } from "./pages/approvals-page";
import { EventsPage } from "./pages/events-page";
import { OverviewPage } from "./pages/overview-page";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";

const stripe = new Stripe("sk_test_unused");

// The owner opens Brynth to see what needs them. An agent asks for an approval and leaves an event dead, a provider
// sends deliveries with a wrong signature; each count on the Overview moves by exactly that, and each opens its
// screen filtered to those rows.
test("each Overview count moves with what happened and opens its screen filtered to exactly those rows", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const sourceName = `shop-${suffix}`;
  const secret = `whsec_${randomBytes(24).toString("hex")}`;
  const summary = `Refund order ${suffix} (12 €)?`;
  const deadType = `order.broken.e2e_${suffix}`;

  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const keyName = `e2e overview ${suffix}`;
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(keyName, ["approvals", "inbox:read", "inbox:write"]));
  await apiKeys.closeDialog();
  const sources = new SourcesPage(page);
  await sources.open();
  const hookUrl = await sources.addWebhookSource({ name: sourceName, verification: "Stripe", secret });

  const overview = new OverviewPage(page);
  await overview.open();
  const labels = [
    "Pending approvals",
    "Events pending",
    "Events dead",
    "Outbound mail failed",
    "Outbound mail unknown",
    "Webhooks refused, 24 h",
    "Keys unused for 30 days",
  ] as const;
  const before = Object.fromEntries(await Promise.all(labels.map(async (l) => [l, await overview.count(l)] as const))) as Record<
    (typeof labels)[number],
    number
  >;
  for (const l of labels) expect(before[l], l).not.toBeNaN();

  // What happens meanwhile: two forged deliveries, one good one, an approval asked for, an event given up on.
  const payload = (type: string) => JSON.stringify({ id: `evt_${randomUUID()}`, type, data: { object: { order: suffix } } });
  for (let i = 0; i < 2; i++) {
    const body = payload("order.created");
    const res = await fetch(hookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_wrong" }) },
      body,
    });
    expect(res.status).toBe(401);
  }
  for (const type of [`order.created.e2e_${suffix}`, deadType]) {
    const body = payload(type);
    const res = await fetch(hookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload: body, secret }) },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  const agent = await connectAgent(server.url, agentKey);
  try {
    const asked = await callTool<{ status: string }>(agent, "ask_approval", { action: "refund", summary, amount: 12, wait_seconds: 0 });
    expect(asked.status).toBe("pending");
    const listed = await callTool<{ events: { id: string; type: string }[] }>(agent, "inbox_list", { source: sourceName, type: deadType });
    const claimed = await callTool<{ lease_token: string }>(agent, "inbox_claim", { event_id: listed.events[0].id });
    await callTool(agent, "inbox_nack", { event_id: listed.events[0].id, lease_token: claimed.lease_token, reason: "cannot parse the order", retry: false });
  } finally {
    await agent.close();
  }

  await overview.open();
  await overview.expectCount("Pending approvals", before["Pending approvals"] + 1);
  await overview.expectCount("Events pending", before["Events pending"] + 1);
  await overview.expectCount("Events dead", before["Events dead"] + 1);
  await overview.expectCount("Webhooks refused, 24 h", before["Webhooks refused, 24 h"] + 2);
  // A key made today is not "unused for 30 days".
  await overview.expectCount("Keys unused for 30 days", before["Keys unused for 30 days"]);
  await shot(page, "overview");

  // Each card opens its screen, filtered to the rows it counts.
  const after = (l: (typeof labels)[number]) => overview.count(l);
  const pendingApprovals = await after("Pending approvals");
  await overview.card("Pending approvals").click();
  await expect(page).toHaveURL(/\/approvals$/);
  const approvals = new ApprovalsPage(page);
  await expect(approvals.card(summary)).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(pendingApprovals);

  const events = new EventsPage(page);
  for (const [label, status, type] of [
    ["Events pending", "pending", `order.created.e2e_${suffix}`],
    ["Events dead", "dead", deadType],
  ] as const) {
    await overview.open();
    const n = await overview.count(label);
    await overview.card(label).click();
    await expect(page).toHaveURL(new RegExp(`/events\\?status=${status}$`));
    const tab = page.getByRole("navigation", { name: "Status" }).getByRole("link", { name: new RegExp(`^${status}\\b`, "i") });
    await expect(tab).toHaveAttribute("aria-current", "page");
    await expect(tab).toHaveText(new RegExp(`\\b${n}$`));
    await expect(events.row(type)).toHaveCount(1);
    if (n <= 50) await expect(events.rows()).toHaveCount(n);
  }

  for (const [label, status, tabName] of [
    ["Outbound mail failed", "failed", /^failed\b/],
    ["Outbound mail unknown", "unknown", /^send unknown\b/],
  ] as const) {
    await overview.open();
    const n = await overview.count(label);
    await overview.card(label).click();
    await expect(page).toHaveURL(new RegExp(`/mail/outbound\\?status=${status}$`));
    const tab = page.getByRole("navigation", { name: "Status" }).getByRole("link", { name: tabName });
    await expect(tab).toHaveAttribute("aria-current", "page");
    await expect(tab).toHaveText(new RegExp(`\\b${n}$`));
  }

  await overview.open();
  const refused = await overview.count("Webhooks refused, 24 h");
  await overview.card("Webhooks refused, 24 h").click();
  await expect(page).toHaveURL(/\/events\/refused$/);
  await expect(page.getByRole("heading", { name: "Refused webhook deliveries", level: 1 })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: sourceName });
  await expect(row).toContainText("Bad signature");
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(page.getByText(new RegExp(`^${refused} refused deliver`))).toBeVisible();
  await shot(page, "events-refused");

  await overview.open();
  const unused = await overview.count("Keys unused for 30 days");
  await overview.card("Keys unused for 30 days").click();
  await expect(page).toHaveURL(/\/api-keys\?unused=30$/);
  await expect(page.getByTestId("keys-filter")).toContainText("unused for 30 days");
  await expect(page.locator("tbody tr")).toHaveCount(unused);
  await expect(page.locator(`tbody tr[data-key-name="${keyName}"]`)).toHaveCount(0);
});

// One key that sent two agent labels is one bar, with both labels under it.
test("the per-key chart counts a key once, whatever agent labels it sent", async ({ page, apiKeys }) => {
  const suffix = randomUUID().slice(0, 8);
  const keyName = `e2e two labels ${suffix}`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const key = await apiKeys.open().then(() => apiKeys.createKey(keyName, ["disk"]));
  await apiKeys.closeDialog();

  const first = await connectAgent(server.url, key);
  const second = await connectAgent(server.url, key);
  try {
    await callTool(second, "session_hello", { agent: `nightly-script-${suffix}`, platform: "custom" });
    for (let i = 0; i < 20; i++) await callTool(first, "kv_set", { key: `e2e/${suffix}/a${i}`, value: i });
    for (let i = 0; i < 10; i++) await callTool(second, "kv_set", { key: `e2e/${suffix}/b${i}`, value: i });
  } finally {
    await first.close();
    await second.close();
  }

  const overview = new OverviewPage(page);
  await expect(async () => {
    await overview.open();
    const label = (await overview.perKeyChart().getAttribute("aria-label")) ?? "";
    // The key's bar: its name, both labels, and every call it made, once (30 here; busy enough for the top 8).
    const mine = label
      .replace(/^Ledger entries per key: /, "")
      .split("; ")
      .filter((part) => part.startsWith(keyName));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain(AGENT_NAME);
    expect(mine[0]).toContain(`nightly-script-${suffix}`);
    expect(Number(/ (\d+)$/.exec(mine[0])?.[1])).toBeGreaterThanOrEqual(30);
    expect(label).not.toMatch(new RegExp(`(^|; )nightly-script-${suffix}`));
  }).toPass({ timeout: 15_000 });
  await shot(page, "overview-per-key");
});
