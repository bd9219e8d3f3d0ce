import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the production build (`node dist/server.mjs`, started by global-setup.ts on a free port with
 * a fresh database). Debian's Chromium, not a downloaded one: CHROMIUM_PATH overrides the path.
 */
export default defineConfig({
  testDir: ".",
  // The foundation spec walks the instance's first run (setup link → owner), so it runs before the module specs.
  projects: [
    { name: "foundation", testMatch: "foundation.spec.ts" },
    { name: "modules", testMatch: "**/*.spec.ts", testIgnore: "foundation.spec.ts", dependencies: ["foundation"] },
  ],
  globalSetup: "./global-setup.ts",
  outputDir: "../test-results/e2e",
  // One server, one owner: the specs walk through an instance's life in order.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? "line" : "list",
  use: {
    browserName: "chromium",
    headless: true,
    colorScheme: process.env.E2E_COLOR_SCHEME === "dark" ? "dark" : "light",
    viewport: { width: 1360, height: 860 },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
});
