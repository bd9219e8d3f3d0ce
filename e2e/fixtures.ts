import { test as base, expect } from "@playwright/test";
import { ApiKeysPage } from "./pages/api-keys-page";
import { LedgerPage } from "./pages/ledger-page";
import { LoginPage } from "./pages/login-page";
import { SetupPage } from "./pages/setup-page";

/** The owner the specs create through the setup page. */
export const OWNER = { email: "owner@example.com", password: "correct horse battery", project: "Acme agents" };

/** Set by global-setup.ts in this process's environment before any worker starts. */
export const server = {
  get url() {
    return required("BRYNTH_E2E_URL");
  },
  get setupUrl() {
    return required("BRYNTH_E2E_SETUP_URL");
  },
  /** The instance's inbound SMTP listener (on 127.0.0.1). */
  get smtpPort() {
    return Number(required("BRYNTH_E2E_SMTP_PORT"));
  },
};

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run through e2e/playwright.config.ts (its globalSetup starts the server)`);
  return v;
}

type Pages = { setupPage: SetupPage; loginPage: LoginPage; apiKeys: ApiKeysPage; ledger: LedgerPage };

export const test = base.extend<Pages>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter and requires an object pattern
  baseURL: async ({}, use) => use(server.url),
  setupPage: async ({ page }, use) => use(new SetupPage(page)),
  loginPage: async ({ page }, use) => use(new LoginPage(page)),
  apiKeys: async ({ page }, use) => use(new ApiKeysPage(page)),
  ledger: async ({ page }, use) => use(new LedgerPage(page)),
});

export { expect };
