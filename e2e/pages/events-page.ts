import { expect, type Page } from "@playwright/test";

export class EventsPage {
  constructor(readonly page: Page) {}

  readonly rows = () => this.page.locator("tbody tr");
  /** The row of an event, found by its (unique in the test) type. */
  readonly row = (type: string) => this.rows().filter({ has: this.page.getByRole("link", { name: type, exact: true }) });

  async open(filters: Record<string, string> = {}) {
    const q = new URLSearchParams(filters);
    await this.page.goto(q.size ? `/events?${q}` : "/events");
    await expect(this.page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  }

  /** Waits until the live stream is connected, so changes from now on re-render the page. */
  async waitUntilLive() {
    await expect(this.page.getByText("Live", { exact: true })).toBeVisible();
  }

  /** Uses the status tabs (links), not the URL. */
  async showStatus(status: "all" | "pending" | "claimed" | "done" | "failed" | "dead") {
    await this.page
      .getByRole("navigation", { name: "Status" })
      .getByRole("link", { name: new RegExp(`^${status}\\b`, "i") })
      .click();
    await expect(this.page).toHaveURL(status === "all" ? /\/events(\?(?!.*status=).*)?$/ : new RegExp(`[?&]status=${status}\\b`));
  }
}
