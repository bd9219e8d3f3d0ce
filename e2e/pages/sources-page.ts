import { expect, type Page } from "@playwright/test";

export class SourcesPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/sources");
    await expect(this.page.getByRole("heading", { name: "Sources", level: 1 })).toBeVisible();
  }

  /** Adds the project's email source in the dialog and returns the project address it shows (the dialog is closed afterwards). */
  async addEmailSource(name: string) {
    await this.page
      .getByRole("button", { name: /^Add (your first )?source$/ })
      .first()
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Add source" });
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByLabel("Type", { exact: true }).selectOption("email");
    await dialog.getByRole("button", { name: "Add source" }).click();
    const address = this.page.getByRole("dialog").getByLabel("Address", { exact: true });
    await expect(address).toHaveValue(/^[^@\s]+@[^@\s]+$/);
    const value = await address.inputValue();
    await this.page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
    await expect(this.page.getByRole("dialog")).toBeHidden();
    return value;
  }

  /** Adds a webhook source in the dialog and returns the URL it shows (the dialog is closed afterwards). */
  async addWebhookSource(fields: { name: string; verification: "Stripe" | "GitHub" | "HMAC-SHA256" | "Standard Webhooks (Svix)"; secret: string }) {
    // Either the header's "Add source" or the empty state's "Add your first source".
    await this.page
      .getByRole("button", { name: /^Add (your first )?source$/ })
      .first()
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Add source" });
    await dialog.getByLabel("Name", { exact: true }).fill(fields.name);
    await dialog.getByLabel("Type", { exact: true }).selectOption("webhook");
    await dialog.getByLabel("Verification", { exact: true }).selectOption({ label: fields.verification });
    await dialog.getByLabel("Secret", { exact: true }).fill(fields.secret);
    await dialog.getByRole("button", { name: "Add source" }).click();
    const url = this.page.getByRole("dialog").getByLabel("Webhook URL");
    await expect(url).toHaveValue(/^https?:\/\//);
    const value = await url.inputValue();
    await this.page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
    await expect(this.page.getByRole("dialog")).toBeHidden();
    return value;
  }
}
