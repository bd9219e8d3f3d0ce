import { expect, type Page } from "@playwright/test";

export class LedgerPage {
  constructor(readonly page: Page) {}

  readonly rows = () => this.page.locator("tbody tr");

  async open(filters: Record<string, string> = {}) {
    const q = new URLSearchParams(filters);
    await this.page.goto(q.size ? `/ledger?${q}` : "/ledger");
    await expect(this.page.getByRole("heading", { name: "Ledger", level: 1 })).toBeVisible();
  }

  /** Uses the filter form (not the URL) so the form is what gets tested. */
  async filter(fields: { op?: string; agent?: string }) {
    if (fields.op !== undefined) await this.page.getByLabel("Op", { exact: true }).fill(fields.op);
    if (fields.agent !== undefined) await this.page.getByLabel("Agent", { exact: true }).fill(fields.agent);
    await this.page.getByRole("button", { name: "Apply filters" }).click();
  }

  async verifyChain(): Promise<string> {
    await this.page.getByRole("button", { name: "Verify chain" }).click();
    const status = this.page.getByRole("status").filter({ hasText: /Chain (OK|broken)/ });
    await expect(status).toBeVisible();
    return (await status.textContent()) ?? "";
  }
}
