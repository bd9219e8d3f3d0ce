import { expect, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";

/** The Policy screen: the rules in force, the draft editor, the side-by-side simulator and the history. */
export class PolicyPage {
  constructor(readonly page: Page) {}

  readonly draftField = () => this.page.getByLabel("Draft policy (JSON)");
  readonly inForceHeading = () => this.page.getByRole("heading", { level: 2, name: /in force|No policy yet/ });
  readonly simInForce = () => this.page.getByRole("region", { name: /^In force \(version \d+\)$/ });
  readonly simDraft = () => this.page.getByRole("region", { name: "Draft", exact: true });
  readonly version = (n: number) => this.page.locator(`li[data-version="${n}"]`);

  async open() {
    await this.page.goto("/policy");
    await expect(this.page.getByRole("heading", { name: "Policy", level: 1 })).toBeVisible();
    // The draft editor is a controlled field: what is typed before hydration is put back (a CI run saved stale text).
    await hydrated(this.draftField());
  }

  async saveDraft(policy: unknown, note?: string) {
    await this.draftField().fill(typeof policy === "string" ? policy : JSON.stringify(policy, null, 2));
    if (note !== undefined) await this.page.getByLabel("Note (optional)").fill(note);
    await this.page.getByRole("button", { name: "Save draft" }).click();
  }

  async simulateAsk(fields: { action: string; amount?: number; risk?: "low" | "medium" | "high" }) {
    await this.page.getByLabel("Request", { exact: true }).selectOption("ask");
    await this.page.getByLabel("Action", { exact: true }).fill(fields.action);
    if (fields.risk) await this.page.getByLabel("Risk", { exact: true }).selectOption(fields.risk);
    await this.page.getByLabel("Amount", { exact: true }).fill(fields.amount === undefined ? "" : String(fields.amount));
    await this.page.getByRole("button", { name: "Simulate" }).click();
  }

  async applyDraft(version: number) {
    await this.page.getByRole("button", { name: `Apply as version ${version}` }).click();
    const dialog = this.page.getByRole("alertdialog", { name: `Apply the draft as version ${version}?` });
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page.getByRole("heading", { level: 2, name: `Version ${version}, in force` })).toBeVisible();
  }

  async revertTo(version: number, becomes: number) {
    await this.version(version)
      .getByRole("button", { name: `Revert to v${version}` })
      .click();
    const dialog = this.page.getByRole("alertdialog", { name: `Revert to version ${version}?` });
    await dialog.getByRole("button", { name: "Revert" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page.getByRole("heading", { level: 2, name: `Version ${becomes}, in force` })).toBeVisible();
  }
}
