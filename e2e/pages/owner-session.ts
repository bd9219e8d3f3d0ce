import { expect, type Page } from "@playwright/test";
import { LoginPage } from "./login-page";
import { SetupPage } from "./setup-page";

/**
 * Signs the owner in, creating the owner through the printed setup link first when this server has none yet (a spec
 * run on its own, without foundation.spec.ts before it).
 */
export class OwnerSession {
  constructor(readonly page: Page) {}

  async signIn(owner: { email: string; password: string; project: string }, setupUrl: string) {
    const setup = new SetupPage(this.page);
    await setup.open(setupUrl);
    const form = this.page.getByText("Create the owner account and the first project.");
    await expect(form.or(setup.refusal())).toBeVisible();
    if (await form.isVisible()) {
      // Setup signs the new owner in: the dashboard follows with no second login.
      await setup.createOwner(owner);
      await expect(this.page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
      return;
    }
    await new LoginPage(this.page).signIn(owner.email, owner.password);
  }
}
