import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { bootstrapOwner } from "@/lib/owners/bootstrap-owner";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";

/**
 * The README's scripted setup, run as written: the block after its `readme-setup-script` marker goes to bash with
 * real curl and jq against a real server whose owner was created the headless way (OWNER_EMAIL/OWNER_PASSWORD at
 * start). If the README's requests stop working, this fails.
 */
const EMAIL = "me@example.com";
const PASSWORD = "a long password";
let server: Awaited<ReturnType<typeof startApiServer>>;

function readmeScript(): string {
  const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
  const at = readme.indexOf("<!-- readme-setup-script");
  const block = /```bash\n([\s\S]*?)\n```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error("README.md has no readme-setup-script block");
  return block[1];
}

function runBash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // stdin not a socket: bash would take that for an rsh session and read ~/.bashrc.
    const child = spawn("bash", ["-c", script], { env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  process.env.OWNER_EMAIL = EMAIL;
  process.env.OWNER_PASSWORD = PASSWORD;
  resetEnvCache();
  server = await startApiServer();
  await bootstrapOwner(() => {});
});
afterAll(async () => {
  await server.close();
  delete process.env.OWNER_EMAIL;
  delete process.env.OWNER_PASSWORD;
  resetEnvCache();
});

describe("README: set up an instance from a script", () => {
  it("runs from a fresh owner to an agent's first call over MCP and REST", async () => {
    const run = await runBash(readmeScript(), { BRYNTH: server.url, OWNER: `${EMAIL}:${PASSWORD}` });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [hookUrl, mcpProject, restWho] = run.stdout.trim().split("\n");
    expect(hookUrl).toMatch(new RegExp(`^${server.url}/hooks/`));
    const project = JSON.parse(mcpProject);
    expect(project.name).toBe("Support bot");
    expect(JSON.parse(restWho)).toEqual({ project, scopes: ["inbox:read", "inbox:write", "approvals", "disk"] });

    // Each step left its entry in the new project's chain, as the dashboard's would.
    for (const op of ["project.create", "key.create", "source.add", "whoami"]) {
      expect(await lastLedgerEntry(project.id, op), op).toBeDefined();
    }
  });
});
