import { expect, type Page } from "@playwright/test";

export class LoginPage {
  constructor(readonly page: Page) {}

  readonly error = () => this.page.locator("main").getByRole("alert");

  async submit(email: string, password: string) {
    await this.page.goto("/login");
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  /** Signs in and waits for the dashboard. */
  async signIn(email: string, password: string) {
    await this.submit(email, password);
    await expect(this.page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  }
}
