import { expect, type Page } from "@playwright/test";

export class ApiKeysPage {
  constructor(readonly page: Page) {}

  readonly row = (name: string) => this.page.locator(`tr[data-key-name="${name}"]`);

  async open() {
    await this.page.goto("/api-keys");
    await expect(this.page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  }

  async openCreateDialog() {
    await this.page.getByRole("button", { name: "Create API key" }).first().click();
    return this.page.getByRole("dialog", { name: "Create API key" });
  }

  /** Creates a key in the dialog and returns the secret it shows once (the dialog stays open). */
  async createKey(name: string, scopes: string[], opts: { mailboxId?: string } = {}): Promise<string> {
    const dialog = await this.openCreateDialog();
    await dialog.getByLabel("Name").fill(name);
    if (opts.mailboxId) await dialog.getByLabel("Restrict to mailbox").selectOption(opts.mailboxId);
    for (const scope of scopes) await dialog.getByLabel(scope, { exact: true }).check();
    await dialog.getByRole("button", { name: "Create key" }).click();
    const secret = this.page.getByLabel("New API key");
    await expect(secret).toHaveValue(/^brk_live_/);
    return secret.inputValue();
  }

  async closeDialog() {
    await this.page.getByRole("button", { name: "Done" }).click();
  }

  /** Revokes through the confirm dialog, which wants the key's name typed. */
  async revoke(name: string) {
    await this.row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = this.page.getByRole("alertdialog");
    const confirm = dialog.getByRole("button", { name: "Revoke key" });
    await expect(confirm).toBeDisabled();
    await dialog.getByRole("textbox").fill(name);
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(this.row(name)).toBeHidden();
  }
}
