import { expect, type Page } from "@playwright/test";

export class ApprovalsPage {
  constructor(readonly page: Page) {}

  /** The Approvals entry of the main navigation; its badge is the number of pending requests. */
  readonly navLink = () => this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Approvals\s*\d*$/ });
  /** A pending request's card, named by its summary. */
  readonly card = (summary: string) => this.page.getByRole("article", { name: summary, exact: true });
  /** A request's row in the history table. */
  readonly historyRow = (summary: string) => this.page.getByRole("row").filter({ has: this.page.getByRole("link", { name: summary, exact: true }) });

  async open() {
    await this.page.goto("/approvals");
    await expect(this.page.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
  }

  /** Waits until the live stream is connected, so new and decided requests re-render the page from now on. */
  async waitUntilLive() {
    await expect(this.page.getByText("Live", { exact: true })).toBeVisible();
  }

  /** The count the navigation shows next to Approvals (no badge means none). */
  async navCount(): Promise<number> {
    const text = (await this.navLink().textContent()) ?? "";
    return Number(/(\d+)\s*$/.exec(text)?.[1] ?? 0);
  }

  async expectNavCount(n: number) {
    await expect(this.navLink()).toHaveText(n > 0 ? new RegExp(`^Approvals\\s*${n}$`) : /^Approvals$/);
  }

  /** Approves on the request's card, with an optional comment for the agent, and waits for the confirmation. */
  async approve(summary: string, comment?: string) {
    const card = this.card(summary);
    if (comment) await card.getByLabel(/^Comment/).fill(comment);
    await card.getByRole("button", { name: /^Approve/ }).click();
    await expect(this.page.getByText(`Approved: ${summary}`)).toBeVisible();
  }

  /** Uses the view tabs (links), not the URL. */
  async showHistory() {
    await this.page.getByRole("navigation", { name: "Approvals views" }).getByRole("link", { name: "History" }).click();
    await expect(this.page).toHaveURL(/[?&]view=history\b/);
  }
}
