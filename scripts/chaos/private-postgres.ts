import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

/** The newest installed server's binaries (Debian's layout), or PG_BIN. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql: install postgresql or set PG_BIN");
  return join(root, newest, "bin");
}

/**
 * A PostgreSQL cluster of our own in a temporary directory, on a free port with trust auth, so restarting it never
 * disturbs the machine's shared server. initdb refuses to run as root, so as root the cluster belongs to the
 * `postgres` user and every command runs as that user.
 */
export async function startPrivatePostgres() {
  const bin = binDir();
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "brynth-chaos-pg-"));
  if (asRoot) chownSync(dir, idOf("-u"), idOf("-g"));
  // Asynchronous: the proxy and the load run in this process and must go on while PostgreSQL restarts.
  const run = async (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args];
    await promisify(execFile)(file, argv, { cwd: dir });
  };
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  const port = await freePort();
  const pgCtl = (...args: string[]) => run("pg_ctl", ["-D", data, "-l", logFile, "-w", "-t", "60", ...args]);
  try {
    await run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
    // Sockets in our directory, not /var/run/postgresql, which the shared server uses. fsync off: the fault here is
    // a server restart, which keeps what the kernel holds; waiting on a busy CI disk at every commit and at the
    // shutdown checkpoint proves nothing more and made a restart take over 30 s.
    const settings = `-c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
    await pgCtl("-o", `-p ${port} -k ${dir} ${settings}`, "start");
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`private PostgreSQL did not start: ${(err as { stderr?: Buffer }).stderr?.toString() ?? err}`);
  }
  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Fast shutdown (open connections are cut) and start again on the same port. */
    restart: () => pgCtl("-m", "fast", "restart"),
    /** Stops the server at once and deletes the cluster; safe to call twice and after a failed start. */
    remove: async () => {
      if (removed) return;
      removed = true;
      await pgCtl("-m", "immediate", "stop").catch(() => {}); // already stopped
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const idOf = (flag: "-u" | "-g") => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
