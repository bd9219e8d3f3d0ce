import { expect, type Page } from "@playwright/test";

/** The Drafts screen (/mail/drafts): every mailbox's drafts by tab, one open beside the list. */
export class DraftsPage {
  constructor(readonly page: Page) {}

  /** The Mailboxes entry of the main navigation; its badge is the number of drafts awaiting approval. */
  readonly navLink = () => this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Mailboxes\s*\d*$/ });
  readonly list = () => this.page.getByRole("list", { name: "Drafts" });
  readonly row = (subject: string) => this.list().getByRole("listitem").filter({ hasText: subject });
  readonly detail = (draftId: string) => this.page.getByRole("article", { name: `Draft ${draftId}` });

  async open(tab: "Awaiting approval" | "Scheduled" | "Failed" | "All" = "Awaiting approval") {
    await this.page.goto("/mail/drafts");
    await expect(this.page.getByRole("navigation", { name: "Mail sections" }).getByRole("link", { name: "Drafts" })).toHaveAttribute("aria-current", "page");
    if (tab !== "Awaiting approval") await this.tab(tab);
  }

  async tab(tab: "Awaiting approval" | "Scheduled" | "Failed" | "All") {
    const link = this.page.getByRole("navigation", { name: "Draft status" }).getByRole("link", { name: new RegExp(`^${tab}`) });
    await link.click();
    await expect(link).toHaveAttribute("aria-current", "page");
  }

  async navCount(): Promise<number> {
    const text = (await this.navLink().textContent()) ?? "";
    return Number(/(\d+)\s*$/.exec(text)?.[1] ?? 0);
  }

  async expectNavCount(n: number) {
    await expect(this.navLink()).toHaveText(n > 0 ? new RegExp(`^Mailboxes\\s*${n}$`) : /^Mailboxes$/);
  }

  /** Opens a draft from the list; resolves with its detail panel. */
  async openDraft(subject: string, draftId: string) {
    await this.row(subject).getByRole("link").click();
    const detail = this.detail(draftId);
    await expect(detail).toBeVisible();
    return detail;
  }
}
