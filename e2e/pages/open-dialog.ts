import { expect, type Page } from "@playwright/test";

/**
 * Presses the button named `button` until the dialog named `dialog` is open, and returns the dialog: a click that
 * lands before the page has hydrated opens nothing (on a loaded machine that window is seconds long).
 */
export async function openDialog(page: Page, button: string, dialog = button) {
  const opened = page.getByRole("dialog", { name: dialog });
  await expect(async () => {
    if (!(await opened.isVisible())) await page.getByRole("button", { name: button }).first().click();
    await expect(opened).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  return opened;
}
