import { expect, type Page } from "@playwright/test";

/** The page an emailed request link opens (no sign-in): it shows the request, and only its form's buttons decide. */
export class DecidePage {
  constructor(readonly page: Page) {}

  readonly decisionButtons = () => this.page.getByRole("button", { name: /^(Approve|Deny|Needs more context)$/ });

  /** Sends the decision with an optional comment; the page reloads and says what was decided. */
  async decide(choice: "Approve" | "Deny", comment?: string) {
    if (comment) await this.page.getByLabel(/^Comment/).fill(comment);
    await this.page.getByRole("button", { name: choice, exact: true }).click();
    await expect(this.decisionButtons()).toHaveCount(0);
  }

  /** What the page says once the request is decided, e.g. "Decided: denied by channel:mario." */
  readonly outcome = () => this.page.getByText(/^Decided: /);
}
