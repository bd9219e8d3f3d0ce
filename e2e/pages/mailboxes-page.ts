import { expect, type Page } from "@playwright/test";

/** The Mailboxes screen (/mail) and one mailbox's client (/mail/<inbox>). */
export class MailboxesPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/mail");
    await expect(this.page.getByRole("heading", { name: "Mailboxes", level: 1 })).toBeVisible();
  }

  /** Creates a mailbox in the New mailbox dialog; resolves with its address once its client is open. */
  async createMailbox(username: string, displayName: string): Promise<string> {
    await this.page.getByRole("button", { name: "New mailbox" }).first().click();
    const dialog = this.page.getByRole("dialog", { name: "New mailbox" });
    await dialog.getByLabel("Username").fill(username);
    const domain = (await dialog.getByLabel("Domain").locator("option:checked").textContent())!.trim();
    await dialog.getByLabel("Display name").fill(displayName);
    await dialog.getByRole("button", { name: "Create mailbox" }).click();
    await expect(this.page.getByText(`${username}@${domain} created`)).toBeVisible();
    await expect(this.page.getByRole("heading", { name: displayName, level: 1 })).toBeVisible();
    return `${username}@${domain}`;
  }

  /** Deletes a mailbox from the table, typing its address to confirm. */
  async deleteMailbox(address: string) {
    await this.page.getByRole("button", { name: `Delete ${address}` }).click();
    const dialog = this.page.getByRole("alertdialog", { name: `Delete ${address}?` });
    await expect(dialog.getByRole("button", { name: "Delete mailbox" })).toBeDisabled();
    await dialog.getByRole("textbox").fill(address);
    await dialog.getByRole("button", { name: "Delete mailbox" }).click();
    await expect(this.page.getByText(`${address} deleted`)).toBeVisible();
  }

  /** Turns an include toggle on (Spam, Blocked, Unauthenticated, Trash) and applies the filters. */
  async include(kind: "Spam" | "Blocked" | "Unauthenticated" | "Trash") {
    const filters = this.page.getByRole("form", { name: "Thread filters" });
    await filters.getByLabel(kind, { exact: true }).check();
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(this.page).toHaveURL(new RegExp(`[?&]${kind === "Unauthenticated" ? "unauth" : kind.toLowerCase()}=1`));
  }

  async waitUntilLive() {
    await expect(this.page.getByText("Live", { exact: true })).toBeVisible();
  }

  threadList() {
    return this.page.getByRole("list", { name: "Threads" });
  }

  thread(subject: string) {
    return this.threadList().getByRole("listitem").filter({ hasText: subject });
  }

  /** The sandboxed iframe of the open conversation's message. */
  messageFrame() {
    return this.page.locator('iframe[title^="Message:"]');
  }
}
