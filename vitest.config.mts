import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    setupFiles: ["lib/testing/setup-db.ts"],
    pool: "forks",
    // Test files mostly wait on the database and sockets: two workers keep both cores busy.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test", APP_SECRET: "test-secret-test-secret-test-secret-0123", LOG_LEVEL: "warn" },
  },
});
