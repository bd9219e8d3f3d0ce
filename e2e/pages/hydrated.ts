import { expect, type Locator } from "@playwright/test";

/**
 * Waits until React has hydrated the control: React marks the DOM nodes it owns with `__reactProps…` keys. Typing
 * into a controlled field before that is lost: hydration puts back the state's value, and on a loaded machine the
 * server-rendered page stays inert for seconds.
 */
export async function hydrated(control: Locator): Promise<void> {
  await expect.poll(() => control.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps"))), { timeout: 30_000 }).toBe(true);
}
