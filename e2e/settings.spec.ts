import { randomUUID } from "node:crypto";
import { OWNER, expect, server, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { OwnerSession } from "./pages/owner-session";
import { shot } from "./screenshots";
import { rest } from "./rest";

// Issue 19 §7 as an owner does it: rename and delete a project, change the password (other browsers are signed out)
// and choose the theme; each form's bad input lands on its field and saves nothing.

type Project = { id: string; name: string };
const listProjects = async () => {
  const body = await rest<{ projects: Project[] } | Project[]>("/projects");
  return Array.isArray(body) ? body : body.projects;
};

test.beforeEach(async ({ page }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
});

test("rename a project, then delete it by typing its name; the dialog says what goes with it", async ({ page }) => {
  const suffix = randomUUID().slice(0, 8);
  const project = await rest<Project>("/projects", { method: "POST", body: { name: `e2e doomed ${suffix}` } });
  await page.context().addCookies([{ name: "brynth_project", value: project.id, url: server.url }]);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  const name = page.getByLabel("Project name");
  await expect(name).toHaveValue(project.name);
  await name.fill("   ");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.locator("#project-name-error")).toHaveText("Name the project.");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await name.evaluate((el) => el.removeAttribute("maxlength"));
  await name.fill("n".repeat(101));
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.locator("#project-name-error")).toHaveText("Use at most 100 characters.");
  expect((await listProjects()).find((p) => p.id === project.id)?.name).toBe(project.name);

  const renamed = `e2e renamed ${suffix}`;
  await name.fill(renamed);
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText(`Project renamed to “${renamed}”`)).toBeVisible();
  await expect.poll(async () => (await listProjects()).find((p) => p.id === project.id)?.name).toBe(renamed);
  await shot(page, "settings");

  await page.getByRole("button", { name: "Delete project…" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${renamed}?` });
  await expect(dialog.getByText("0 API keys")).toBeVisible();
  await expect(dialog.getByText(/the project's ledger/)).toBeVisible();
  const confirm = dialog.getByLabel(`Type ${renamed} to confirm`);
  await confirm.fill("not the name");
  await expect(dialog.getByRole("button", { name: "Delete project" })).toBeDisabled();
  await confirm.fill(renamed);
  await dialog.getByRole("button", { name: "Delete project" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  expect((await listProjects()).map((p) => p.id)).not.toContain(project.id);
});

test("changing the password signs out the other browsers; wrong, short and mismatched input is refused on its field", async ({ page, browser }) => {
  // Five argon2 checks and two sign-ins: slow on a shared machine.
  test.slow();
  const other = await browser.newContext({ baseURL: server.url });
  const otherPage = await other.newPage();
  await new LoginPage(otherPage).signIn(OWNER.email, OWNER.password);

  await page.goto("/settings#password");
  const current = page.getByLabel("Current password");
  const next = page.getByLabel("New password", { exact: true });
  const again = page.getByLabel("New password again");
  const submit = () => page.getByRole("button", { name: "Change password" }).click();

  await submit();
  await expect(page.locator("#password-current-error")).toHaveText("Enter your current password.");
  await expect(current).toBeFocused();
  await current.fill("not my password");
  await next.fill("a brand new password");
  await again.fill("a brand new password");
  await submit();
  await expect(page.locator("#password-current-error")).toHaveText("The current password is wrong.");
  await current.fill(OWNER.password);
  await next.fill("short");
  await again.fill("short");
  await submit();
  await expect(page.locator("#password-next-error")).toHaveText("Use at least 10 characters.");
  await next.fill("a brand new password");
  await again.fill("a different new password");
  await submit();
  await expect(page.locator("#password-confirm-error")).toHaveText("The two new passwords differ.");

  // The other browser is still in: nothing was changed.
  await otherPage.goto("/settings");
  await expect(otherPage.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  await again.fill("a brand new password");
  await submit();
  await expect(page.getByText(/^Password changed; \d+ other sessions? signed out$/)).toBeVisible();
  await otherPage.goto("/settings");
  await expect(otherPage).toHaveURL(/\/login/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Back to the specs' password, from this (still signed-in) browser.
  await page.getByLabel("Current password").fill("a brand new password");
  await page.getByLabel("New password", { exact: true }).fill(OWNER.password);
  await page.getByLabel("New password again").fill(OWNER.password);
  await submit();
  await expect(page.getByText(/^Password changed/).first()).toBeVisible();
  await new LoginPage(otherPage).signIn(OWNER.email, OWNER.password);
  await other.close();
});

test("the theme is chosen in Settings, applies at once and survives a reload", async ({ page }) => {
  await page.goto("/settings#appearance");
  const html = page.locator("html");
  // The class changes at once; the cookie that makes it survive a reload is saved a moment later.
  const saved = (theme: string | undefined) =>
    expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "brynth_theme")?.value).toBe(theme);
  await page.getByRole("radio", { name: "Dark" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await saved("dark");
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("radio", { name: "Dark" })).toHaveAttribute("aria-checked", "true");
  expect(await page.evaluate(() => getComputedStyle(document.body).colorScheme)).toBe("dark");

  await page.getByRole("radio", { name: "Light" }).click();
  await expect(html).toHaveClass(/\blight\b/);
  await saved("light");
  await page.reload();
  await expect(html).toHaveClass(/\blight\b/);

  await page.getByRole("radio", { name: "System" }).click();
  await saved("system");
  await page.reload();
  await expect(html).not.toHaveClass(/\b(light|dark)\b/);
});

test("a 404 is a styled page with a way back, and the favicon is the Brynth mark", async ({ page }) => {
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the overview" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toMatch(/icon/);
  const icon = await page.request.get(new URL(href ?? "", server.url).toString());
  expect(icon.ok()).toBe(true);
  expect(await icon.text()).toContain("<svg");
});
