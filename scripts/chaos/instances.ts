import type { ChildProcess } from "node:child_process";
import { startProcess } from "../../bench/support/processes";

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
    },
    /** SIGKILL: no shutdown hook runs, open requests and transactions are cut wherever they are. */
    kill9: () => new Promise<void>((resolve) => stop(child, "SIGKILL", resolve)),
    stop: () => new Promise<void>((resolve) => stop(child, "SIGTERM", resolve)),
  };
}

function stop(child: ChildProcess | null, signal: NodeJS.Signals, done: () => void) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return done();
  // A graceful stop that hangs (a stuck connection) ends in SIGKILL: cleanup must finish.
  const force = setTimeout(() => child.kill("SIGKILL"), 5000);
  child.once("exit", () => {
    clearTimeout(force);
    done();
  });
  child.kill(signal);
}
