import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildNeeded } from "@/scripts/build-freshness.mjs";

/** A project tree of the given files, each with its modification time in seconds. */
function tree(files: Record<string, number>) {
  const root = mkdtempSync(join(tmpdir(), "brynth-freshness-"));
  for (const [path, at] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), "x");
    utimesSync(join(root, path), at, at);
  }
  return root;
}
const built = { ".next/BUILD_ID": 2000, "dist/server.mjs": 2001 };

describe("npm start and the browser tests rebuild a stale build", () => {
  it("builds when there is no build, or half of one", () => {
    expect(buildNeeded(tree({ "lib/a.ts": 1000 }))).toBe("there is no build");
    expect(buildNeeded(tree({ "lib/a.ts": 1000, ".next/BUILD_ID": 2000 }))).toBe("there is no build");
  });

  it("keeps a build newer than every source, and ignores changed tests", () => {
    const root = tree({ ...built, "lib/a.ts": 1000, "drizzle/0001_x.sql": 1500, "lib/a.test.ts": 3000, "lib/x/__tests__/b.ts": 3000 });
    expect(buildNeeded(root)).toBeNull();
  });

  it("rebuilds after a source, a migration or the lock file changed (a git pull with the same dependencies)", () => {
    expect(buildNeeded(tree({ ...built, "lib/deep/down/a.ts": 3000 }))).toBe("lib changed since the last build");
    expect(buildNeeded(tree({ ...built, "drizzle/0099_new.sql": 3000 }))).toBe("drizzle changed since the last build");
    expect(buildNeeded(tree({ ...built, "package-lock.json": 3000 }))).toBe("package-lock.json changed since the last build");
    // Older than the server bundle but newer than .next: the older output decides.
    expect(buildNeeded(tree({ ...built, "app/page.tsx": 2000.5 }))).toBe("app changed since the last build");
  });
});
