import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import postgres from "postgres";
import { OWNER, expect, server, test } from "./fixtures";
import { AGENT_NAME, callTool, connectAgent } from "./mcp";
import { shot } from "./screenshots";
import { openDialog } from "./pages/open-dialog";

// One instance's life in order: setup, sign-in, a key, an agent's calls, the ledger, revocation.
test.describe.configure({ mode: "serial" });

const KEY_NAME = "e2e reader";
let secret = "";

test("the printed setup link creates the owner and the first project", async ({ page, setupPage }) => {
  await setupPage.open(server.setupUrl);
  await expect(page.getByText("Create the owner account and the first project.")).toBeVisible();
  await shot(page, "setup");
  await setupPage.createOwner(OWNER);
  // Signed in at once: no second login after setup (issue 19 §9).
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/`);
});

test("the setup link is refused once the owner exists, as is any other token", async ({ page, setupPage }) => {
  await setupPage.open(server.setupUrl);
  await expect(setupPage.refusal()).toContainText("already has an owner");
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await setupPage.open(`${server.url}/setup?token=${"x".repeat(32)}`);
  await expect(setupPage.refusal()).toContainText("already has an owner");
});

test("a wrong password shows an error and does not sign in", async ({ page, loginPage }) => {
  await loginPage.submit(OWNER.email, "not the password");
  await expect(loginPage.error()).toHaveText("Wrong email or password.");
  await shot(page, "login-error");
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("a key created in the UI lets an MCP agent call tools, which the ledger shows and verifies", async ({ page, loginPage, apiKeys, ledger }) => {
  await loginPage.signIn(OWNER.email, OWNER.password);
  await expect(page.getByRole("combobox", { name: "Project" })).toHaveText(OWNER.project);
  await apiKeys.open();
  await apiKeys.openCreateDialog();
  await shot(page, "api-keys-create");
  await page.keyboard.press("Escape");

  secret = await apiKeys.createKey(KEY_NAME, ["ledger:read"]);
  expect(secret).toMatch(/^brk_live_[A-Za-z0-9]{32}$/);
  await expect(page.getByText(`--header "Authorization: Bearer ${secret}"`)).toBeVisible();
  await shot(page, "api-keys-secret");
  await apiKeys.closeDialog();
  await expect(page.getByLabel("New API key")).toHaveCount(0);
  await expect(apiKeys.row(KEY_NAME)).toContainText("ledger:read");
  await expect(apiKeys.row(KEY_NAME)).toContainText("Never");
  await shot(page, "api-keys");

  const agent = await connectAgent(server.url, secret);
  try {
    const me = await callTool<{ key: { name: string; scopes: string[] }; agent: string; project: { name: string } }>(agent, "whoami");
    expect(me.key).toMatchObject({ name: KEY_NAME, scopes: ["ledger:read"] });
    expect(me.project.name).toBe(OWNER.project);
    expect(me.agent).toBe(AGENT_NAME);
    const { entries } = await callTool<{ entries: { op: string; agent: string | null }[] }>(agent, "ledger_query", {
      op: "key.create",
    });
    expect(entries).toHaveLength(1);
  } finally {
    await agent.close();
  }

  await ledger.open();
  await ledger.filter({ op: "whoami" });
  await expect(page).toHaveURL(/\/ledger\?op=whoami$/);
  await expect(ledger.rows()).toHaveCount(1);
  await expect(ledger.rows().first()).toContainText(AGENT_NAME);
  await expect(ledger.rows().first()).toContainText(KEY_NAME);
  await ledger.open();
  await expect(ledger.rows().filter({ hasText: "ledger.query" })).toHaveCount(1);
  await expect(ledger.rows().filter({ hasText: "key.create" })).toHaveCount(1);
  await shot(page, "ledger");

  await ledger.rows().filter({ hasText: "whoami" }).getByRole("link", { name: "whoami" }).click();
  await expect(page.getByRole("heading", { name: "whoami", level: 1 })).toBeVisible();
  await expect(page.getByText(/^[0-9a-f]{64}$/).first()).toBeVisible();
  await expect(page.getByText("Hash matches the content")).toBeVisible();
  await shot(page, "ledger-entry");

  await ledger.open();
  expect(await ledger.verifyChain()).toMatch(/^Chain OK \(\d+ entries\)$/);
  await shot(page, "ledger-verified");

  await page.goto("/");
  await expect(page.getByRole("img", { name: new RegExp(`Ledger entries per key: .*${AGENT_NAME}`) })).toBeVisible();
  await shot(page, "overview");
});

test("a key revoked in the UI is refused with 401 on the agent's next MCP call", async ({ loginPage, apiKeys }) => {
  const agent: Client = await connectAgent(server.url, secret);
  await loginPage.signIn(OWNER.email, OWNER.password);
  await apiKeys.open();
  await apiKeys.revoke(KEY_NAME);

  // The SDK's StreamableHTTPError carries the HTTP status as `code`.
  expect(await httpStatusOf(callTool(agent, "whoami"))).toBe(401);
  expect(await httpStatusOf(connectAgent(server.url, secret))).toBe(401);
  const raw = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(raw.status).toBe(401);
  await agent.close().catch(() => {});
});

test("projects can be created and switched, each with its own keys", async ({ page, loginPage, apiKeys }) => {
  await loginPage.signIn(OWNER.email, OWNER.password);
  const dialog = await openDialog(page, "New project");
  await dialog.getByLabel("Name").fill("Second project");
  await page.getByRole("button", { name: "Create project" }).click();
  const switcher = page.getByRole("combobox", { name: "Project" });
  await expect(switcher).toHaveText("Second project");
  await apiKeys.open();
  await expect(page.getByText("No API keys yet")).toBeVisible();

  await switcher.click();
  await page.getByRole("option", { name: OWNER.project }).click();
  await expect(switcher).toHaveText(OWNER.project);
  await page.goto("/api-keys?revoked=1");
  await expect(apiKeys.row(KEY_NAME)).toContainText("Revoked");
});

test("sessions are listed, and signing out ends this one", async ({ page, loginPage }) => {
  await loginPage.signIn(OWNER.email, OWNER.password);
  await page.goto("/settings");
  const sessions = page.locator("#sessions");
  await expect(sessions.getByText("This session")).toBeVisible();
  await shot(page, "settings");
  await page.getByRole("button", { name: "Owner menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);
});

// Last: it breaks the chain on purpose. Only on Postgres, where the test can reach the server's database.
test("a row edited in the database makes Verify chain name its seq", async ({ page, loginPage, ledger }) => {
  const url = process.env.BRYNTH_E2E_DATABASE_URL;
  test.skip(!url, "needs DATABASE_URL (PGlite lives inside the server process)");
  const sql = postgres(url!, { max: 1, onnotice: () => {} });
  try {
    await sql`update ledger_entries set agent = 'someone else'
              where seq = 2 and project_id = (select id from projects where name = ${OWNER.project})`;
  } finally {
    await sql.end();
  }
  await loginPage.signIn(OWNER.email, OWNER.password);
  await ledger.open();
  expect(await ledger.verifyChain()).toBe("Chain broken at seq 2: hash does not match the entry's content");
  await page.getByRole("link", { name: "seq 2" }).click();
  await expect(page.getByText("hash does not match the entry's content")).toBeVisible();
  await shot(page, "ledger-broken");
});

async function httpStatusOf(p: Promise<unknown>): Promise<unknown> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return (err as { code?: unknown }).code;
}
