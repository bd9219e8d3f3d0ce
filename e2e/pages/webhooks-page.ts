import { expect, type Page } from "@playwright/test";

/** The Webhooks screen under Mailboxes: the webhooks table, its dialogs and the delivery log. */
export class WebhooksPage {
  constructor(readonly page: Page) {}

  readonly row = (webhookUrl: string) => this.page.locator("tr[data-webhook-id]").filter({ hasText: webhookUrl });
  /** The delivery log's rows, of one webhook when `url` is given (other specs' webhooks may be delivering too). */
  readonly attempts = (url?: string) => (url ? this.page.locator("tr[data-attempt-id]").filter({ hasText: url }) : this.page.locator("tr[data-attempt-id]"));

  async open() {
    await this.page.goto("/mail/webhooks");
    await expect(this.page.getByRole("link", { name: "Webhooks", exact: true })).toHaveAttribute("aria-current", "page");
  }

  /** Creates a webhook and returns the secret the dialog shows once. */
  async create(url: string, eventTypes: string[]): Promise<string> {
    await this.page.getByRole("button", { name: "New webhook" }).click();
    const dialog = this.page.getByRole("dialog", { name: "New webhook" });
    await dialog.getByLabel("Endpoint URL").fill(url);
    for (const t of eventTypes) await dialog.getByLabel(t, { exact: true }).check();
    await dialog.getByRole("button", { name: "Create webhook" }).click();
    const done = this.page.getByRole("dialog", { name: "Webhook created" });
    const secret = await done.getByLabel("Signing secret").inputValue();
    await expect(done.getByRole("button", { name: "Copy secret" })).toBeVisible();
    await done.getByRole("button", { name: "Done" }).click();
    await expect(done).toBeHidden();
    return secret;
  }

  async sendTest(url: string) {
    await this.row(url)
      .getByRole("button", { name: `Send a test event to ${url}` })
      .click();
    await expect(this.page.getByText("Test event queued")).toBeVisible();
  }

  /** The job runs a moment after the click: reload until the log shows `count` attempts. */
  async expectAttempts(count: number, url: string) {
    await expect(async () => {
      await this.page.reload();
      await expect(this.attempts(url)).toHaveCount(count, { timeout: 2000 });
    }).toPass({ timeout: 30_000, intervals: [250, 500, 1000] });
  }

  async rotate(url: string): Promise<string> {
    await this.row(url)
      .getByRole("button", { name: `Rotate the secret of ${url}` })
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Rotate the signing secret" });
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    const secret = await dialog.getByLabel("Signing secret").inputValue();
    await expect(dialog).toContainText("carry two signatures until");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    return secret;
  }

  async addHeader(url: string, name: string, value: string) {
    await this.row(url)
      .getByRole("button", { name: `Custom headers of ${url}` })
      .click();
    const dialog = this.page.getByRole("dialog", { name: "Custom headers" });
    await dialog.getByLabel("Header name").fill(name);
    await dialog.getByLabel("Header value").fill(value);
    await dialog.getByRole("button", { name: "Add header" }).click();
    await expect(dialog.getByRole("list", { name: "Custom headers" })).toContainText(`${name}••••`);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
  }
}
