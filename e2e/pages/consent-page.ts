import { expect, type Page } from "@playwright/test";

/** The OAuth consent page an MCP client's authorization URL leads to, and the Connected apps list in Settings. */
export class ConsentPage {
  constructor(readonly page: Page) {}

  async open(authorizationUrl: URL, clientName: string) {
    await this.page.goto(authorizationUrl.toString());
    await expect(this.page).toHaveURL(/\/oauth\/consent\?/);
    await expect(this.page.getByText(`Connect ${clientName} to Brynth?`)).toBeVisible();
  }

  scope = (id: string) => this.page.locator(`input[name="scope"][value="${id}"]`);

  /** Leaves exactly `scopes` ticked: the rest are cleared at once (there are thirty), the wanted ones clicked. */
  async grantOnly(scopes: string[]) {
    await this.page.locator('input[name="scope"]').evaluateAll((boxes) => {
      for (const box of boxes as HTMLInputElement[]) box.checked = false;
    });
    for (const id of scopes) await this.scope(id).check();
    await expect(this.page.locator('input[name="scope"]:checked')).toHaveCount(scopes.length);
  }

  async restrictTo(address: string) {
    await this.page.getByLabel("Mailbox", { exact: true }).selectOption({ label: `Only ${address}` });
  }

  /**
   * Approves, and waits until the browser has loaded the client's redirect with the code: the callback server sees
   * the request before the page finishes loading it, and a goto in that gap was interrupted by the redirect.
   */
  async approve() {
    await this.page.getByRole("button", { name: "Approve" }).click();
    await this.page.waitForURL(/[?&]code=/);
  }

  connectedApp = (clientName: string) => this.page.locator(`tr[data-grant-client="${clientName}"]`);

  async revokeInSettings(clientName: string) {
    await this.page.goto("/settings#connected-apps");
    const row = this.connectedApp(clientName);
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: `Revoke ${clientName}` }).click();
    const dialog = this.page.getByRole("alertdialog");
    await dialog.getByRole("textbox").fill(clientName);
    await dialog.getByRole("button", { name: "Revoke access" }).click();
    await expect(row).toBeHidden();
  }
}
