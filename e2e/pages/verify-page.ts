import { expect, type Page } from "@playwright/test";

/** The page a channel's verification email links to (no sign-in): it names the channel, its button confirms. */
export class VerifyPage {
  constructor(readonly page: Page) {}

  async confirm(url: string, label: string) {
    await this.page.goto(url);
    await expect(this.page.getByText(/^Receive approval requests at .+@.+\?$/)).toBeVisible();
    await expect(this.page.getByText(`as channel “${label}”`)).toBeVisible();
    await this.page.getByRole("button", { name: "Confirm this address" }).click();
    await expect(this.page.getByText("Address confirmed")).toBeVisible();
  }
}
