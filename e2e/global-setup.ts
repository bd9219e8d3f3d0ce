import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { buildNeeded } from "../scripts/build-freshness.mjs";
import { runtimeEnv } from "../scripts/runtime-env.mjs";

const root = resolve(__dirname, "..");

/**
 * Starts the production server as a user would run it, on a free port with a fresh database (PGlite in a temporary
 * DATA_DIR, or a new database on DATABASE_URL's server), and hands the tests its URL and the setup link it prints.
 * Builds first when there is no build or the sources changed since it (as `npm start` does).
 */
export default async function globalSetup() {
  const why = buildNeeded(root);
  if (why) {
    console.log(`Building (${why})…`);
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  const port = await freePort();
  const smtpPort = await freePort();
  // A port for the webhooks spec's receiver on 127.0.0.1: the only local address deliveries may reach.
  const hookPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "brynth-e2e-"));
  const db = await freshDatabase();

  const env: NodeJS.ProcessEnv = { ...runtimeEnv(), NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port) }; // as `npm start` runs it
  Object.assign(env, { PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "warn", SMTP_PORT: String(smtpPort), SMTP_HOST: "127.0.0.1" });
  env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${hookPort}`;
  // A headless-install owner would suppress the setup link the specs start from.
  for (const k of ["OWNER_EMAIL", "OWNER_PASSWORD", "DATABASE_URL", "APP_SECRET", "NEXTAUTH_URL", "SMTP_RELAY_URL", "MAIL_DOMAIN"]) delete env[k];
  if (db) env.DATABASE_URL = db.url;

  const logFile = join(tmpdir(), `brynth-e2e-server-${port}.log`);
  const child = spawn(process.execPath, ["dist/server.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(logFile);
  child.stderr!.pipe(log);
  const setupUrl = await waitForReady(child, log, logFile);

  process.env.BRYNTH_E2E_URL = url;
  process.env.BRYNTH_E2E_SETUP_URL = setupUrl;
  process.env.BRYNTH_E2E_SMTP_PORT = String(smtpPort);
  process.env.BRYNTH_E2E_HOOK_PORT = String(hookPort);
  process.env.BRYNTH_E2E_SERVER_LOG = logFile;
  if (db) process.env.BRYNTH_E2E_DATABASE_URL = db.url;

  return async () => {
    await new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

function waitForReady(child: ChildProcess, log: NodeJS.WritableStream, logFile: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = "";
    let link: string | undefined;
    const timer = setTimeout(() => fail(new Error("the server did not start within 90 s")), 90_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${err.message}; server log: ${logFile}\n${out.slice(-2000)}`));
    };
    child.stdout!.on("data", (chunk: Buffer) => {
      log.write(chunk);
      out += chunk.toString();
      link ??= /(https?:\/\/\S+\/setup\?token=\S+)/.exec(out)?.[1];
      if (/Brynth ready on/.test(out)) {
        clearTimeout(timer);
        child.off("exit", onExit);
        if (link) resolvePromise(link);
        else fail(new Error("the server started without printing a setup link"));
      }
    });
    const onExit = (code: number | null) => fail(new Error(`the server exited with code ${code}`));
    child.once("exit", onExit);
  });
}

/** With DATABASE_URL set, a database of our own on that server, dropped afterwards. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const base = process.env.DATABASE_URL;
  if (!base || !/^postgres(ql)?:\/\//.test(base)) return null;
  const name = `brynth_e2e_${process.pid}_${Date.now()}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolvePromise(port));
    });
  });
}
