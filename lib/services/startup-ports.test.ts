import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * A port that is taken ends the process (exit 1) with one line naming the port and the variable that sets it, instead
 * of leaving it alive and holding database connections. Runs the real entry, server.ts, as `npm run dev` does.
 */
const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function holdPort(): Promise<number> {
  const s = createServer();
  held.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as AddressInfo).port;
}

/** Runs server.ts with `vars`; resolves with its exit code and stderr, or code null if still alive at the deadline. */
function runServer(vars: Record<string, string>, deadlineMs = 150_000): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(join(tmpdir(), "brynth-ports-")),
      ...vars,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: null, stderr });
    }, deadlineMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/**
 * server.ts serves the production build (`npm run build`, which CI runs first; the browser tests build it when it is
 * missing, after these run): without one it cannot start at all, so there is nothing to test yet.
 */
const built = existsSync(join(process.cwd(), ".next", "BUILD_ID"));

describe.runIf(built)("startup on a taken port", () => {
  it("exits non-zero naming the HTTP port and PORT", async () => {
    const port = await holdPort();
    const { code, stderr } = await runServer({ PORT: String(port), SMTP_PORT: "0" });
    expect(stderr).toContain(`Port ${port} is in use (set PORT to another port).`);
    expect(code).toBe(1);
  }, 180_000);

  it("exits non-zero naming the SMTP port and SMTP_PORT", async () => {
    const smtpPort = await holdPort();
    const { code, stderr } = await runServer({ PORT: "0", SMTP_PORT: String(smtpPort) });
    expect(stderr).toContain(`SMTP port ${smtpPort} is in use (set SMTP_PORT to another port, or 0 to turn the listener off).`);
    expect(code).toBe(1);
  }, 180_000);
});
