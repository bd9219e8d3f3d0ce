import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { dashboardScreens } from "./dashboard-screens";
import { OWNER, expect, server, test } from "./fixtures";
import { callTool, connectAgent } from "./mcp";
import { ApprovalsPage } from "./pages/approvals-page";
import { ChannelsPage } from "./pages/channels-page";
import { MailPage } from "./pages/mail-page";
import { OwnerSession } from "./pages/owner-session";
import { startRelaySink } from "./relay-sink";
import { openDialog } from "./pages/open-dialog";

// Issue 19, "Small things that add up", as an owner meets them. Covered elsewhere: the favicon and the styled 404
// (settings.spec.ts), and that setup signs the owner in with no second login (foundation.spec.ts).

type Finding = { path: string; problem: string };

/** Opens each screen and collects what `inspect` (run in the page) reports, so one failure lists every screen. */
async function sweep(page: Page, paths: string[], inspect: () => string[]): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const path of paths) {
    await page.goto(path, { waitUntil: "load" });
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    for (const problem of await page.evaluate(inspect)) found.push({ path, problem });
  }
  return found;
}

/** Creates a project and switches to it, so a test's rows and settings are its own. */
async function newProject(page: Page, name: string) {
  const dialog = await openDialog(page, "New project");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog).toBeHidden();
}

test("the sidebar shows the Brynth mark, drawn like the favicon", async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const sidebar = page.getByRole("complementary");
  const mark = sidebar.getByRole("img", { name: "Brynth" });
  await expect(mark).toBeVisible();
  const box = await mark.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(24);
  // The same shape as the favicon: the mark's paths are the icon's.
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  const icon = await (await page.request.get(new URL(href ?? "/icon.svg", server.url).toString())).text();
  const iconPaths = [...icon.matchAll(/<path[^>]*\sd="([^"]+)"/g)].map((m) => m[1]);
  const markPaths = await mark.locator("path").evaluateAll((ps) => ps.map((p) => p.getAttribute("d")));
  expect(iconPaths.length).toBeGreaterThan(0);
  expect(markPaths).toEqual(iconPaths);

  // On a phone the sidebar is behind the menu button, and the mark comes with it.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(mark).toBeHidden();
  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(page.getByRole("dialog", { name: "Navigation" }).getByRole("img", { name: "Brynth" })).toBeVisible();
});

test("dates read as relative times with the exact time on hover on every screen, and amounts are formatted", async ({ page, apiKeys }) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  const summary = `Refund the annual plan ${suffix}?`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e dates ${suffix}`, ["approvals", "disk"]));
  await apiKeys.closeDialog();
  const agent = await connectAgent(server.url, agentKey);
  try {
    await callTool(agent, "ask_approval", {
      action: "refund",
      summary,
      details: "Customer asked within the 30 days.",
      risk: "low",
      amount: 1250.5,
      wait_seconds: 0,
    });
    await callTool(agent, "kv_set", { key: `e2e/dates-${suffix}`, value: { at: "now" } });
  } finally {
    await agent.close();
  }

  // The amount as a person reads it, on the card and on the request's own page.
  const approvals = new ApprovalsPage(page);
  await approvals.open();
  const card = approvals.card(summary);
  await expect(card).toContainText("Amount 1,250.5");
  await card.getByRole("link", { name: summary }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("1,250.5");
  await expect(page.getByRole("main")).not.toContainText("1250.5");

  const paths = [...(await dashboardScreens(page)), "/approvals", page.url().replace(server.url, "")];
  let times = 0;
  const findings: Finding[] = [];
  for (const path of paths) {
    await page.goto(path, { waitUntil: "load" });
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    const seen = await page.evaluate(() => {
      const problems: string[] = [];
      // "3 min ago", "in 2 h", a short date beyond 30 days; a request's countdown ("23 h 59 min left") counts too.
      const relative =
        /^(just now|in <1 min|\d+ (min|h|d) ago|in \d+ (min|h|d)|[A-Z][a-z]{2} \d{1,2}(, \d{4})?|(\d+ h )?\d+ min left|\d+ h left|\d+ days left|expired)$/;
      const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
      const main = document.querySelector("main") ?? document.body;
      const stamps = [...main.querySelectorAll("time")];
      for (const t of stamps) {
        const text = (t.textContent ?? "").trim();
        const when = new Date(t.dateTime);
        const title = t.getAttribute("title") ?? "";
        if (!relative.test(text)) problems.push(`<time> reads "${text}", not a relative time`);
        if (Number.isNaN(when.getTime())) problems.push(`<time> "${text}" has no machine-readable dateTime`);
        // The hover (title) names the instant to the second, with its year.
        const mmss = `:${String(when.getMinutes()).padStart(2, "0")}:${String(when.getSeconds()).padStart(2, "0")}`;
        if (!title.includes(mmss) || !title.includes(String(when.getFullYear())) || iso.test(title)) problems.push(`<time> "${text}" hover is "${title}"`);
      }
      // No raw timestamps outside <time>: JSON, code and fields show data as it is, and are left alone.
      const raw = [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, /\b[A-Z][a-z]{2} \d{1,2}, \d{4},? \d{1,2}:\d{2}/, /\b\d{1,2}\/\d{1,2}\/\d{4}\b/];
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest("time, pre, code, textarea, script, style, [data-slot=code-block], [data-slot=json-tree]")) continue;
        if (!el.checkVisibility()) continue;
        const text = n.textContent ?? "";
        if (raw.some((r) => r.test(text))) problems.push(`raw timestamp "${text.trim().slice(0, 80)}" in <${el.tagName.toLowerCase()}>`);
      }
      return { problems, count: stamps.length };
    });
    times += seen.count;
    for (const problem of seen.problems) findings.push({ path, problem });
  }
  expect(findings).toEqual([]);
  // The walk saw dates at all: the request, the key and the ledger's entries at least.
  expect(times).toBeGreaterThan(3);
});

test("owners read as their email, never as an owner: string, wherever a screen says who did something", async ({ page, apiKeys }) => {
  test.setTimeout(180_000);
  const suffix = randomUUID().slice(0, 8);
  const summary = `Publish the price list ${suffix}?`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e names ${suffix}`, ["approvals"]));
  await apiKeys.closeDialog();
  const agent = await connectAgent(server.url, agentKey);
  let requestId = "";
  try {
    ({ request_id: requestId } = await callTool<{ request_id: string }>(agent, "ask_approval", { action: "publish", summary, risk: "low", wait_seconds: 0 }));
  } finally {
    await agent.close();
  }
  const approvals = new ApprovalsPage(page);
  await approvals.open();
  await approvals.approve(summary);
  await approvals.showHistory();
  await expect(approvals.historyRow(summary)).toContainText(OWNER.email);
  await page.goto(`/approvals/${requestId}`);
  await expect(page.getByRole("main")).toContainText(OWNER.email);

  const findings = await sweep(page, [...(await dashboardScreens(page)), `/approvals/${requestId}`], () => {
    const problems: string[] = [];
    const main = document.querySelector("main") ?? document.body;
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      // JSON payloads and code show stored data as it is.
      if (!el || el.closest("pre, code, textarea, script, style, [data-slot=code-block], [data-slot=json-tree]")) continue;
      if (/\bowner:\S/.test(n.textContent ?? "")) problems.push(`"${(n.textContent ?? "").trim().slice(0, 80)}"`);
    }
    return problems;
  });
  expect(findings).toEqual([]);
});

test("the owner sees their own channel's address whole, while agents get it masked", async ({ page, apiKeys }) => {
  // A new project, a key and mail through the relay: past the default minute on a loaded machine.
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const label = `me-${suffix}`;
  const sink = await startRelaySink();
  try {
    await new OwnerSession(page).signIn(OWNER, server.setupUrl);
    // A project of its own: the owner's address is not yet a channel there, and its relay is this test's sink.
    await newProject(page, `Channels ${suffix}`);
    const mail = new MailPage(page);
    await mail.open("Mail settings");
    await mail.saveRelay({ host: "127.0.0.1", port: sink.port });
    const channels = new ChannelsPage(page);
    await channels.open();
    await channels.addEmailChannel({ address: OWNER.email, label });
    await expect(channels.row(label)).toContainText(OWNER.email);
    await expect(channels.row(label)).not.toContainText("***");

    const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e channels ${suffix}`, ["approvals"]));
    await apiKeys.closeDialog();
    const agent = await connectAgent(server.url, agentKey);
    try {
      const listed = await callTool<{ channels: Array<{ label: string; address: string | null }> }>(agent, "channel_list");
      const mine = listed.channels.find((c) => c.label === label);
      expect(mine?.address).toBe("o***r@example.com");
    } finally {
      await agent.close();
    }
  } finally {
    await sink.close();
  }
});

test("revoking a file link takes one confirmation, not typing its id, and the link stops working", async ({ page, apiKeys }) => {
  // A new project, a key and mail through the relay: past the default minute on a loaded machine.
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 8);
  const path = `e2e/links-${suffix}.txt`;
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  // A project of its own: its policy is the default, which lets an agent make links.
  await newProject(page, `Links ${suffix}`);
  const agentKey = await apiKeys.open().then(() => apiKeys.createKey(`e2e links ${suffix}`, ["disk"]));
  await apiKeys.closeDialog();
  const agent = await connectAgent(server.url, agentKey);
  let link: { url?: string; link_id?: string } = {};
  try {
    await callTool(agent, "file_put", { path, content_base64: Buffer.from(`shared ${suffix}\n`).toString("base64"), content_type: "text/plain" });
    link = await callTool(agent, "file_url", { path });
  } finally {
    await agent.close();
  }
  expect(link.url).toBeTruthy();
  expect((await fetch(link.url!)).status).toBe(200);

  await page.goto("/disk?tab=links");
  const row = page.getByRole("row").filter({ hasText: path });
  await row.getByRole("button", { name: `Revoke link ${link.link_id}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(path);
  await expect(dialog.getByRole("textbox")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Revoke link" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Link “${link.link_id}” revoked`)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await fetch(link.url!)).status).toBeGreaterThanOrEqual(400);
});

test("every row action shows its name or opens a menu: none is a bare icon", async ({ page }) => {
  test.setTimeout(180_000);
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const findings = await sweep(page, await dashboardScreens(page), () => {
    const problems: string[] = [];
    // Text a sighted owner sees: a screen reader's sr-only label (a 1 px clipped box) does not count.
    const shownText = (el: HTMLElement) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let text = "";
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        let visible = true;
        for (let a = n.parentElement; a && visible; a = a === el ? null : a.parentElement) {
          const style = getComputedStyle(a);
          if (a.getBoundingClientRect().width <= 1 || style.visibility === "hidden" || style.opacity === "0") visible = false;
        }
        if (visible) text += n.textContent ?? "";
      }
      return text.trim();
    };
    const main = document.querySelector("main") ?? document.body;
    for (const el of main.querySelectorAll<HTMLElement>("tbody tr :is(button, a[href], [role=button]):not([role=checkbox], [role=switch])")) {
      if (!el.checkVisibility()) continue;
      const name = el.getAttribute("aria-label") ?? el.getAttribute("title") ?? "";
      // Checkboxes and switches (a row's selection, a webhook's on/off) are named controls whose look is their state.
      // A copy button belongs to the value beside it (an id, a DNS record), not to the row: its icon is the label.
      if (/^Copy\b/.test(name)) continue;
      const shown = shownText(el);
      const menu = ["menu", "true", "listbox", "dialog"].includes(el.getAttribute("aria-haspopup") ?? "");
      if (!shown && !menu) problems.push(`icon-only ${el.tagName.toLowerCase()} "${name}"`);
      if (!shown && !name) problems.push(`unnamed ${el.tagName.toLowerCase()}: ${el.outerHTML.slice(0, 80)}`);
    }
    return problems;
  });
  expect(findings).toEqual([]);
});

test("Next's telemetry is off in the build: next.config.ts turns it off before the build reads it", async () => {
  // What `next build` does, in a process of its own: load next.config.ts, then start Next's telemetry. The variable
  // is removed first, so only the config can have turned it off (CI also exports it).
  const root = resolve(__dirname, "..");
  const script = `
    delete process.env.NEXT_TELEMETRY_DISABLED;
    const { join } = require("node:path");
    const loadConfig = require("next/dist/server/config").default;
    const { PHASE_PRODUCTION_BUILD } = require("next/constants");
    const { Telemetry } = require("next/dist/telemetry/storage");
    loadConfig(PHASE_PRODUCTION_BUILD, process.cwd()).then((config) => {
      const telemetry = new Telemetry({ distDir: join(process.cwd(), config.distDir), skipNotify: true });
      process.stdout.write("\\n" + JSON.stringify({ variable: process.env.NEXT_TELEMETRY_DISABLED ?? null, enabled: telemetry.isEnabled }));
    });
  `;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "" } });
  const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
  expect(result).toEqual({ variable: "1", enabled: false });
});
