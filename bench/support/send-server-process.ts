import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProcess } from "./processes";

/** The APP_SECRET of the sending benches' servers: a bench that signs an owner cookie itself needs the same one. */
export const BENCH_APP_SECRET = "bench-secret-bench-secret-bench-secret";

/**
 * Starts bench/support/mail-send-server.ts (Brynth's fast path with a job runner) on `databaseUrl`, relaying
 * outside mail to the sink on `relayPort`, with quotas no bench reaches. `seed: false` starts a second instance that
 * only serves and runs jobs. BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles it.
 */
export async function startSendServer(o: { databaseUrl: string; relayPort: number; dataDir?: string; seed?: boolean }) {
  const { child, match } = await startProcess(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), "--import", "tsx", "bench/support/mail-send-server.ts"],
    {
      DATABASE_URL: o.databaseUrl,
      DATABASE_POOL_SIZE: "20",
      DATA_DIR: o.dataDir ?? mkdtempSync(join(tmpdir(), "brynth-bench-send-")),
      APP_SECRET: BENCH_APP_SECRET,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SMTP_RELAY_URL: `smtp://127.0.0.1:${o.relayPort}`,
      EMAIL_DAILY_LIMIT: "10000000",
      EMAIL_MONTHLY_LIMIT: "10000000",
      SEED: o.seed === false ? "0" : "1",
    },
    /ready (\S+)(?: (\S+) (\S+) (\S+))?\n/,
  );
  return { child, base: match[1], key: match[2], inbox: match[3], projectId: match[4] };
}
