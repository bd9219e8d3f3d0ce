import { expect, type Page } from "@playwright/test";

/** The Overview: "what needs you now" counts (each a link) and the activity charts. */
export class OverviewPage {
  constructor(readonly page: Page) {}

  /** A count's card, a link named "<label>: <number>". */
  readonly card = (label: string) =>
    this.page.getByRole("region", { name: "What needs you now" }).getByRole("link", { name: new RegExp(`^${escapeRegExp(label)}: [\\d,]+$`) });
  readonly perKeyChart = () => this.page.getByRole("img", { name: /^Ledger entries per key:/ });

  async open() {
    await this.page.goto("/");
    await expect(this.page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  }

  async count(label: string): Promise<number> {
    const name = (await this.card(label).getAttribute("aria-label")) ?? "";
    return Number(/: ([\d,]+)$/.exec(name)?.[1].replaceAll(",", "") ?? Number.NaN);
  }

  async expectCount(label: string, n: number) {
    await expect(this.card(label)).toHaveAccessibleName(`${label}: ${n.toLocaleString("en-US")}`);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
