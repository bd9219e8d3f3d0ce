import { expect, type Page } from "@playwright/test";

export class ChannelsPage {
  constructor(readonly page: Page) {}

  /** An email or Telegram channel's row, by its label (the row's Remove button is named for it). */
  readonly row = (label: string) => this.page.getByRole("row").filter({ has: this.page.getByRole("button", { name: `Remove ${label}`, exact: true }) });
  /** The owner channel's row: the dashboard itself, always active. */
  readonly ownerRow = () => this.page.getByRole("row").filter({ hasText: "This dashboard" });

  async open() {
    await this.page.goto("/channels");
    await expect(this.page.getByRole("heading", { name: "Channels", level: 1 })).toBeVisible();
  }

  /** Adds an email channel in the dialog; the instance mails the address a verification link. */
  async addEmailChannel(fields: { address: string; label: string }) {
    await this.page.getByRole("button", { name: "Add channel" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Add a channel" });
    await dialog.getByLabel("Kind", { exact: true }).selectOption("email");
    await dialog.getByLabel("Email address").fill(fields.address);
    await dialog.getByLabel("Label", { exact: true }).fill(fields.label);
    await dialog.getByRole("button", { name: "Add channel" }).click();
    const added = this.page.getByRole("dialog", { name: `Channel “${fields.label}” added` });
    await expect(added).toContainText("A verification link was sent to");
    await added.getByRole("button", { name: "Done" }).click();
    await expect(this.page.getByRole("dialog")).toBeHidden();
  }

  /** Removes through the confirm dialog, which wants the label typed. */
  async remove(label: string) {
    await this.row(label)
      .getByRole("button", { name: `Remove ${label}` })
      .click();
    const dialog = this.page.getByRole("alertdialog");
    await dialog.getByRole("textbox").fill(label);
    await dialog.getByRole("button", { name: "Remove channel" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.row(label)).toBeHidden();
  }
}
