import { expect, type Page } from "@playwright/test";

/** The Quarantine, Rejected mail and Lists screens under Mailboxes. */
export class QuarantinePage {
  constructor(readonly page: Page) {}

  readonly row = (messageSubject: string) => this.page.getByRole("row").filter({ hasText: messageSubject });
  readonly entryRow = (entry: string) => this.page.locator(`tr[data-entry="${entry}"]`);

  async openQuarantine(inboxId?: string) {
    await this.page.goto(inboxId ? `/mail/quarantine?inbox=${inboxId}` : "/mail/quarantine");
    await this.expectTab("Quarantine");
  }

  async openLists(scope: string, direction: "receive" | "reply" | "send" = "receive") {
    await this.page.goto(`/mail/lists?scope=${scope}&direction=${direction}`);
    await this.expectTab("Lists");
  }

  async addEntry(entry: string, type: "Allow" | "Block", reason: string) {
    const form = this.page.getByRole("form", { name: "Add a list entry" });
    await form.getByLabel("Entry", { exact: true }).fill(entry);
    await form.getByLabel("List", { exact: true }).selectOption({ label: type });
    await form.getByLabel("Reason", { exact: true }).fill(reason);
    await form.getByRole("button", { name: "Add entry" }).click();
  }

  async removeEntry(entry: string) {
    await this.entryRow(entry)
      .getByRole("button", { name: `Remove ${entry}` })
      .click();
    const dialog = this.page.getByRole("alertdialog", { name: `Remove ${entry}?` });
    await dialog.getByRole("button", { name: "Remove entry" }).click();
    await expect(dialog).toBeHidden();
  }

  async release(messageSubject: string) {
    await this.row(messageSubject).getByRole("button", { name: "Release" }).click();
    const dialog = this.page.getByRole("alertdialog", { name: `Release “${messageSubject}”?` });
    await dialog.getByRole("button", { name: "Release" }).click();
    await expect(dialog).toBeHidden();
  }

  async delete(messageSubject: string) {
    await this.row(messageSubject).getByRole("button", { name: "Delete" }).click();
    const dialog = this.page.getByRole("alertdialog", { name: new RegExp(`^Delete “${messageSubject}” from `) });
    await dialog.getByRole("button", { name: "Delete message" }).click();
    await expect(dialog).toBeHidden();
  }

  private async expectTab(name: string) {
    await expect(this.page.getByRole("heading", { name: "Mailboxes", level: 1 })).toBeVisible();
    await expect(this.page.getByRole("navigation", { name: "Mail sections" }).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
  }
}
