import { expect, type Page } from "@playwright/test";

export class DiskPage {
  constructor(readonly page: Page) {}

  readonly fileRow = (path: string) => this.page.locator(`tr[data-path="${path}"]`);
  readonly uploadProgress = (name: string) => this.page.getByRole("progressbar", { name: `Uploading ${name}` });

  async openFiles() {
    await this.page.goto("/disk");
    await expect(this.page.getByRole("heading", { name: "Disk", level: 1 })).toBeVisible();
    await this.page.getByRole("navigation", { name: "Disk sections" }).getByRole("link", { name: "Files" }).click();
    await expect(this.page).toHaveURL(/[?&]tab=files\b/);
    await expect(this.page.getByLabel("Upload files")).toBeAttached();
  }

  async openKeys() {
    await this.page.goto("/disk?tab=keys");
    await expect(this.page.getByRole("heading", { name: "Disk", level: 1 })).toBeVisible();
  }

  /** Fills the New key dialog and saves; the dialog stays open when a field is refused. */
  async submitNewKey(fields: { key: string; valueJson: string; ttl?: string }) {
    const dialog = this.page.getByRole("dialog");
    if (!(await dialog.isVisible())) await this.page.getByRole("button", { name: "New key" }).click();
    await dialog.getByLabel("Key").fill(fields.key);
    await dialog.getByLabel("Value (JSON)").fill(fields.valueJson);
    await dialog.getByLabel("Expires after (seconds)").fill(fields.ttl ?? "");
    await dialog.getByRole("button", { name: "Save" }).click();
    return dialog;
  }

  async upload(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.page.getByLabel("Upload files").setInputFiles(file);
  }

  /** Opens the link dialog for a file, creates a link with the default expiry and returns its URL. */
  async createLink(path: string): Promise<string> {
    await this.fileRow(path)
      .getByRole("button", { name: `Create link for ${path}` })
      .click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create link" }).click();
    const url = dialog.getByLabel("Link URL");
    await expect(url).toHaveValue(/^https?:\/\//);
    const value = await url.inputValue();
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    return value;
  }
}
