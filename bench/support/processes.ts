import { spawn, type ChildProcess } from "node:child_process";
import postgres from "postgres";
import { runtimeEnv } from "../../scripts/runtime-env.mjs";

/**
 * A per-key call limit no bench reaches: the benches hammer one key far past the default 6,000 a minute, and must
 * measure the hot path, limit check included, not 429s. Set, rather than 0, so the check's cost stays in the figures.
 */
export const BENCH_KEY_CALLS_PER_MINUTE = "1000000000";

/** Starts a child process, with the environment `npm start` gives Brynth, and resolves once stdout matches `ready`. */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(cmd, args, { env: { ...runtimeEnv(), KEY_CALLS_PER_MINUTE: BENCH_KEY_CALLS_PER_MINUTE, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.on("exit", (code) => reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}\n${out}`)));
  });
}

/** A fresh database on the local Postgres (BENCH_DATABASE_URL or the default), dropped by the returned function. */
export async function freshDatabase(prefix: string) {
  const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `${prefix}_${Date.now()}`;
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
