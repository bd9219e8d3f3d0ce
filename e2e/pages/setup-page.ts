import type { Page } from "@playwright/test";

export class SetupPage {
  constructor(readonly page: Page) {}

  readonly refusal = () => this.page.locator("main").getByRole("alert");

  async open(url: string) {
    await this.page.goto(url);
  }

  async createOwner(owner: { email: string; password: string; project: string }) {
    await this.page.getByLabel("Email").fill(owner.email);
    await this.page.getByLabel("Password").fill(owner.password);
    await this.page.getByLabel("Project name").fill(owner.project);
    await this.page.getByRole("button", { name: "Create owner account" }).click();
  }
}
