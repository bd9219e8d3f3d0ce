import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Build output, dependencies and test artefacts: never the project's own source. */
const SKIPPED_DIRS = new Set(["node_modules", ".next", "dist", "data", "meta", "results", "test-results", "playwright-report"]);

/** Every file below `dir` whose name matches `name`, for the guard tests that read the source tree. */
export function* walkFiles(dir: string, name: RegExp): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walkFiles(join(dir, entry.name), name);
    } else if (name.test(entry.name)) {
      yield join(dir, entry.name);
    }
  }
}
