import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { fileURLToPath } from "node:url";

/**
 * Files that spend most of their time waiting on purpose: mcp-progress holds a 75 s inbox_wait past the SDK's 60 s
 * request timeout. Started first, the wait overlaps the rest of the suite; without Vitest's results cache (CI's first
 * run) files start largest first, this small one near the end, and the run ended on it with the other worker idle.
 */
const WAIT_FIRST = ["lib/tools/__tests__/mcp-progress.test.ts"];

class WaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (f: TestSpecification) => WAIT_FIRST.some((path) => f.moduleId.endsWith(`/${path}`));
    return [...sorted.filter(waits), ...sorted.filter((f) => !waits(f))];
  }
}

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    setupFiles: ["lib/testing/setup-db.ts"],
    pool: "forks",
    // Test files mostly wait on the database and sockets: two workers keep both cores busy.
    maxWorkers: 2,
    sequence: { sequencer: WaitsFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test", APP_SECRET: "test-secret-test-secret-test-secret-0123", LOG_LEVEL: "warn" },
  },
});
