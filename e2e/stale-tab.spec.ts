import type { Page } from "@playwright/test";
import { OWNER, expect, server, test } from "./fixtures";
import { DiskPage } from "./pages/disk-page";
import { uniq } from "./pages/form-errors";
import { OwnerSession } from "./pages/owner-session";
import { openDialog } from "./pages/open-dialog";

// The current project is a cookie every tab shares. A tab left on one project after another was opened in a second
// tab saved what the owner typed there into the other project. Now the action is refused, naming both, and nothing is
// saved; reloading the tab shows the project the other tab opened.

async function newProject(page: Page, name: string) {
  const dialog = await openDialog(page, "New project");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog).toBeHidden();
}

test("a tab left on one project cannot save into the project another tab opened since", async ({ page, context }) => {
  await new OwnerSession(page).signIn(OWNER, server.setupUrl);
  const [one, two] = [`Tab one ${uniq()}`, `Tab two ${uniq()}`];
  await newProject(page, one);
  const disk = new DiskPage(page);
  await disk.openKeys();

  const other = await context.newPage();
  await other.goto("/disk?tab=keys");
  await newProject(other, two);

  const key = `stale-${uniq()}`;
  const dialog = await disk.submitNewKey({ key, valueJson: '"typed in tab one"' });
  await expect(dialog.getByText(`This tab shows project “${one}”, but “${two}” was opened in another tab since.`)).toBeVisible();
  await page.keyboard.press("Escape");

  // Saved in neither project.
  await other.goto(`/disk?tab=keys&prefix=${key}`);
  await expect(other.getByRole("link", { name: key, exact: true })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Project" })).toHaveText(two);
  await expect(page.getByRole("link", { name: key, exact: true })).toHaveCount(0);
  // Back in step with the cookie, the tab saves again.
  await disk.openKeys();
  await disk.submitNewKey({ key, valueJson: '"typed after reload"' });
  await expect(page.getByRole("dialog")).toBeHidden();
  await other.goto(`/disk?tab=keys&prefix=${key}`);
  await expect(other.getByRole("link", { name: key, exact: true })).toBeVisible();
});
