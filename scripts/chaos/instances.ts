import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { startProcess } from "../../bench/support/processes";
import { log } from "./log";

/**
 * One production instance (`node dist/server.mjs`, as `npm start` runs it) on a fixed port, so that after a
 * `kill -9` it comes back where the proxy expects it.
 */
export function productionInstance(name: string, port: number, env: Record<string, string | undefined>) {
  let child: ChildProcess | null = null;
  return {
    name,
    port,
    start: async () => {
      const started = await startProcess(process.execPath, ["dist/server.mjs"], { ...env, PORT: String(port) }, /Brynth ready on/);
      child = started.child;
      // The instance's own account of a stop or a fault (`[brynth] SIGTERM: stopping…`, `cut 1 requests…`), in the run's log.
      const stdout = child.stdout;
      if (stdout) createInterface({ input: stdout }).on("line", (line) => line.startsWith("[brynth]") && log(`${name}: ${line}`));
    },
    /** SIGKILL: no shutdown hook runs, open requests and transactions are cut wherever they are. */
    kill9: () => stop(child, "SIGKILL", 5000).then(() => undefined),
    /** SIGTERM: the graceful stop. Resolves with the exit code, null when it had not ended by `forceAfterMs`. */
    stop: (forceAfterMs: number) => stop(child, "SIGTERM", forceAfterMs),
  };
}

function stop(child: ChildProcess | null, signal: NodeJS.Signals, forceAfterMs: number) {
  return new Promise<number | null>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve(child?.exitCode ?? null);
    // A graceful stop that hangs (a stuck connection) ends in SIGKILL: cleanup must finish.
    const force = setTimeout(() => child.kill("SIGKILL"), forceAfterMs);
    child.once("exit", (code) => {
      clearTimeout(force);
      resolve(code);
    });
    child.kill(signal);
  });
}
