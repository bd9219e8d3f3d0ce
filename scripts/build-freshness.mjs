// Whether the production build (`.next` + `dist/server.mjs`) is missing or older than what it is built from, for
// `npm start` and the browser tests. After `git pull` (or an edit) with the same dependencies, comparing only
// package-lock.json ran the old build against the new migrations (which run from `drizzle/` at start).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** What the build reads: source trees and the files that configure it. Tests are not built. */
const INPUTS = [
  "app",
  "components",
  "lib",
  "drizzle",
  "server.ts",
  "next.config.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "package-lock.json",
  "scripts/build-server.mjs",
];
const isTest = (name) => name === "__tests__" || name === "testing" || /\.test\.tsx?$/.test(name);

/** The newest modification time under `path` (a file or a directory), skipping tests. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (!isTest(entry.name)) t = Math.max(t, newest(join(path, entry.name)));
  }
  return t;
}

/** Why `root` needs `npm run build`, or null when its build is current. */
export function buildNeeded(root) {
  const outputs = [join(root, ".next/BUILD_ID"), join(root, "dist/server.mjs")];
  if (!outputs.every((f) => existsSync(f))) return "there is no build";
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const changed = INPUTS.find((input) => newest(join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}
