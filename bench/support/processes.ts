import { spawn, type ChildProcess } from "node:child_process";
import postgres from "postgres";
import { runtimeEnv } from "../../scripts/runtime-env.mjs";

/**
 * Per-key (and per-source) limits no bench reaches. The benches hammer one key far past the default 6,000 calls a minute, and must
 * measure the hot path, limit check included, not 429s (set, rather than 0, so the check's cost stays in the figures).
 * One key also holds 200 waiting ask_approval calls (approvals.ts, 220 requests pending at once) and 200 live streams
 * (mail-stream.ts), against defaults of 20 of each per instance and 100 pending requests.
 */
export const BENCH_KEY_LIMITS = {
  KEY_CALLS_PER_MINUTE: "1000000000",
  KEY_MAX_WAITS: "10000",
  STREAM_MAX_PER_KEY: "10000",
  KEY_MAX_PENDING_REQUESTS: "100000",
  SOURCE_DELIVERIES_PER_MINUTE: "1000000000",
  HTTP_MAX_CONNECTIONS_PER_IP: "1000000",
};

/** Starts a child process, with the environment `npm start` gives Brynth, and resolves once stdout matches `ready`. */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(cmd, args, { env: { ...runtimeEnv(), ...BENCH_KEY_LIMITS, ...env }, stdio: ["ignore", "pipe", "inherit"] });
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
