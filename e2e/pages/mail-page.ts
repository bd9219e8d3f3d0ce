import { expect, type Page } from "@playwright/test";

type Section = "Outbound mail" | "Domains" | "Mail settings";
const paths: Record<Section, string> = { "Outbound mail": "/mail/outbound", Domains: "/mail/domains", "Mail settings": "/mail/settings" };

/** The Mail screens: outbound messages, domains with their DNS records, and the relay settings. */
export class MailPage {
  constructor(readonly page: Page) {}

  async open(section: Section) {
    await this.page.goto(paths[section]);
    await expect(this.page.getByRole("heading", { name: "Mailboxes", level: 1 })).toBeVisible();
    await expect(this.page.getByRole("navigation", { name: "Mail sections" }).getByRole("link", { name: section })).toHaveAttribute("aria-current", "page");
  }

  /**
   * Saves a plain-SMTP relay without login on Mail settings (replacing whatever was there). TLS first: changing it
   * resets a default port.
   */
  async saveRelay(relay: { host: string; port: number }) {
    // By role: the required fields' labels end in a (hidden) asterisk, which getByLabel would have to match.
    await this.page.getByRole("combobox", { name: "TLS", exact: true }).selectOption("none");
    await this.page.getByRole("textbox", { name: "Host", exact: true }).fill(relay.host);
    await this.page.getByRole("spinbutton", { name: "Port", exact: true }).fill(String(relay.port));
    await this.page.getByRole("textbox", { name: "User", exact: true }).fill("");
    const clearPassword = this.page.getByLabel("Remove the stored password");
    if (await clearPassword.isVisible()) await clearPassword.check();
    await this.page.getByRole("button", { name: "Save relay" }).click();
    await expect(this.page.getByText("Relay saved")).toBeVisible();
  }

  /** "Send a test message" on Mail settings; resolves with what the screen reports. */
  async sendTestMessage(to: string) {
    await this.page.getByLabel("Send to", { exact: true }).fill(to);
    await this.page.getByRole("button", { name: "Send test message" }).click();
    const status = this.page.getByRole("status").filter({ hasText: /Accepted by the relay|refused|could not/ });
    await expect(status).toBeVisible();
    return status;
  }

  /** The DKIM record (TXT name and value) the Domains screen asks to publish for a domain. */
  async dkimRecord(domain: string) {
    const row = this.page
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell", { name: "DKIM", exact: true }) })
      .filter({ hasText: `._domainkey.${domain}` });
    await expect(row).toHaveCount(1);
    const cells = row.getByRole("cell");
    const name = (await cells.nth(2).getByRole("code").textContent())!.trim();
    const value = (await cells.nth(3).getByRole("code").textContent())!.trim();
    return { name, value };
  }

  /** The Outbound mail row of a message, by recipient and subject. */
  outboundRow(to: string, subject: string) {
    return this.page.getByRole("row").filter({ hasText: to }).filter({ hasText: subject });
  }
}
