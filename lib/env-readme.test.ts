import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every setting lib/env.ts reads is documented in the README's configuration tables. */
describe("README configuration", () => {
  it("lists every variable of lib/env.ts", () => {
    const source = readFileSync(join(process.cwd(), "lib/env.ts"), "utf8");
    const schema = source.slice(source.indexOf("const schema = z.object({"), source.indexOf("export type Env"));
    const names = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(names).toContain("JOBS_WEBHOOK_CONCURRENCY");
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
    const config = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Approval callbacks"));
    expect(names.filter((n) => !config.includes(`\`${n}\``))).toEqual([]);
    expect(readme).not.toMatch(/open issues?/i);
  });
});
