import type { Page } from "@playwright/test";
import { join } from "node:path";

/** Saves a full-page screenshot when E2E_SCREENSHOTS names a folder (for looking at the UI); else does nothing. */
export async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  const scheme = process.env.E2E_COLOR_SCHEME === "dark" ? "dark" : "light";
  await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: true, animations: "disabled" });
}
