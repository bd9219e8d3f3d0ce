import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { OWNER, expect, server, test } from "./fixtures";
import { dropMaxLength, expectFieldError, ownerAuth } from "./pages/form-errors";
import { OwnerSession } from "./pages/owner-session";
import { SourcesPage } from "./pages/sources-page";

// Issue 19 §4 as an owner meets it: every error sits on its field in plain words, scrolls into view and takes focus,
// a server-side conflict lands on its field too, and nothing is saved.

async function sourceNames(page: Page): Promise<string[]> {
  const res = await page.request.get(`${server.url}/api/v1/owner/sources`, { headers: { authorization: ownerAuth } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { sources?: { name: string }[] } | { name: string }[];
  return (Array.isArray(body) ? body : (body.sources ?? [])).map((s) => s.name);
}

test.beforeEach(async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
});

test("Create key with no scope shows why on Scopes, scrolled into view with focus on the first scope, and saves nothing", async ({ page, apiKeys }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  const name = `e2e no scope ${randomUUID().slice(0, 8)}`;
  await apiKeys.open();
  const dialog = await apiKeys.openCreateDialog();
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create key" }).click();

  const error = dialog.getByText("Choose at least one scope.");
  await expect(error).toBeVisible();
  await expect(error).toBeInViewport();
  await expect(page.locator(":focus")).toHaveAttribute("role", "checkbox");
  await expect(dialog.getByRole("group", { name: "Scopes" })).toHaveAttribute("aria-describedby", /key-scopes-error/);

  // An empty name: on the Name field, in plain words, with focus there.
  await dialog.getByLabel("Name").fill("");
  await dialog.getByLabel("approvals", { exact: true }).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expectFieldError(dialog.getByLabel("Name"), "Name is required.");
  await expect(dialog.getByLabel("Name")).toBeFocused();

  // Too long: the server's words, not zod's.
  await dropMaxLength(dialog.getByLabel("Name"));
  await dialog.getByLabel("Name").fill("k".repeat(101));
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expectFieldError(dialog.getByLabel("Name"), "Use at most 100 characters.");

  await page.keyboard.press("Escape");
  await apiKeys.open();
  await expect(apiKeys.row(name)).toHaveCount(0);
});

test("Add source: empty, too long, wrong format and a duplicate name each land on Name in plain words; nothing is saved", async ({ page }) => {
  const sources = new SourcesPage(page);
  const taken = `e2e-forms-${randomUUID().slice(0, 8)}`;
  await sources.open();
  await sources.addWebhookSource({ name: taken, verification: "HMAC-SHA256", secret: "a-long-enough-shared-secret-1234" });
  const before = await sourceNames(page);

  await page
    .getByRole("button", { name: /^Add (your first )?source$/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Add source" });
  const name = dialog.getByLabel("Name", { exact: true });
  await dialog.getByLabel("Type", { exact: true }).selectOption("webhook");
  // Everything but the name is valid, so each error is the name's.
  await dialog.getByLabel("Verification", { exact: true }).selectOption({ label: "HMAC-SHA256" });
  await dialog.getByLabel("Secret", { exact: true }).fill("a-long-enough-shared-secret-1234");
  const submit = () => dialog.getByRole("button", { name: "Add source" }).click();

  await name.fill("");
  await submit();
  await expectFieldError(name, "Name is required.");
  await expect(name).toBeFocused();

  await dropMaxLength(name);
  await name.fill("a".repeat(65));
  await submit();
  await expectFieldError(name, "Use at most 64 characters.");

  await name.fill("Not A Slug");
  await submit();
  await expectFieldError(name, "Use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit.");

  await name.fill(taken);
  await submit();
  await expectFieldError(name, `A source named ${taken} exists already.`);

  expect(await sourceNames(page)).toEqual(before);
});
