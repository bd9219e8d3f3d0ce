/**
 * Disk on PostgreSQL, against baselines measured in the same run:
 * - kv_set / kv_get of 1 KB and 256 KB values through REST with 16 concurrent clients (ops/s, p50, p99), vs the raw
 *   SQL upsert / select of the same values by primary key with 16 connections, and vs whoami through the same REST
 *   pipeline (authentication, ledger entry, response: the floor every tool call pays) — for the 1 KB read also in
 *   alternating rounds, whose ratio holds when the machine's speed does not;
 * - a 50 MB file through the presigned flow (file_put upload → PUT → complete) and back (file_get download_url), on
 *   the local store and on S3 (s3rver), in MB/s, vs writing/reading the same bytes straight to the disk and to
 *   s3rver with the AWS SDK.
 * Brynth runs as its fast path (what server.ts serves for /api/v1 and /blob) in its own process; each REST phase
 * also reports the CPU per call of that process, its Postgres backends and the load generator (cpu-time.ts).
 * Run: npx tsx bench/disk.ts   (SECONDS=8 FILE_MB=50 to change the defaults)
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import S3rver from "s3rver";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { serverCpuPerCall } from "./support/cpu-time";
import { closedLoop } from "./support/load";
import { freshDatabase, startProcess } from "./support/processes";

const SECONDS = Number(process.env.SECONDS ?? 8);
const CLIENTS = 16;
const FILE_MB = Number(process.env.FILE_MB ?? 50);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function http(
  method: string,
  url: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const h = body !== undefined ? { "content-length": String(Buffer.byteLength(body)), ...headers } : headers;
    const req = request(url, { method, agent, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A JSON value whose serialised form is exactly `bytes` long. */
const jsonOfSize = (bytes: number) => ({ data: "x".repeat(bytes - '{"data":""}'.length) });

async function startBrynth(env: Record<string, string>) {
  const db = await freshDatabase("brynth_bench_disk");
  const dataDir = mkdtempSync(join(tmpdir(), "brynth-bench-disk-"));
  const { child, match } = await startProcess(
    process.execPath,
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles Brynth's process.
    [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), "--import", "tsx", "bench/support/disk-api-server.ts"],
    {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      APP_SECRET: "bench-secret-bench-secret-bench-secret",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_POOL_SIZE: "20",
      ...env,
    },
    /ready (\S+) (\S+) (\S+)/,
  );
  return {
    url: match[1],
    key: match[2],
    projectId: match[3],
    /** `closedLoop` with the CPU per call of the API process, its Postgres backends and this load generator. */
    measured: <T extends { requests: number }>(fn: () => Promise<T>) => serverCpuPerCall(child.pid!, new URL(db.url).pathname.slice(1), fn),
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function kvRuns({ url: base, key, measured }: Awaited<ReturnType<typeof startBrynth>>) {
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const out: Record<string, unknown> = {};
  // The pipeline's floor in this run: auth, ledger entry and response for a tool that does no work of its own.
  const whoami = async () => {
    const res = await http("GET", `${base}/api/v1/whoami`, undefined, auth);
    if (res.status !== 200) throw new Error(`whoami ${res.status}`);
  };
  for (let i = 0; i < 300; i++) await whoami(); // warm: modules load and compile on first use
  out.whoami_floor = await measured(() => closedLoop(CLIENTS, SECONDS, whoami));
  for (const [label, bytes] of [
    ["1kb", 1024],
    ["256kb", 256 * 1024],
  ] as const) {
    const body = Buffer.from(JSON.stringify({ value: jsonOfSize(bytes) })); // encoded once: the load generator shares the cores
    const keyOf = (w: number, i: number) => `${base}/api/v1/kv/bench%2F${label}%2F${w}%2F${i % 20}`;
    const counters = new Array(CLIENTS).fill(0);
    const set = async (w: number) => {
      const res = await http("PUT", keyOf(w, counters[w]++), body, auth);
      if (res.status !== 200) throw new Error(`kv_set ${res.status} ${res.body.toString().slice(0, 200)}`);
    };
    for (let w = 0; w < CLIENTS; w++) for (let i = 0; i < 20; i++) await set(w); // every key exists before measuring
    out[`kv_set_${label}`] = await measured(() => closedLoop(CLIENTS, SECONDS, set));
    const get = async (w: number) => {
      const res = await http("GET", keyOf(w, counters[w]++), undefined, auth);
      if (res.status !== 200 || res.body.length < bytes) throw new Error(`kv_get ${res.status}`);
    };
    out[`kv_get_${label}`] = await measured(() => closedLoop(CLIENTS, SECONDS, get));
    if (label === "1kb") out.kv_get_1kb_against_whoami = await alternated(measured, whoami, get);
  }
  return out;
}

/**
 * The small read against the floor in alternating rounds: this machine's speed drifts by a third within minutes,
 * so only rates taken moments apart compare (per-round ratio, median over the rounds).
 */
async function alternated(measured: Awaited<ReturnType<typeof startBrynth>>["measured"], whoami: () => Promise<void>, get: (w: number) => Promise<void>) {
  const rounds = [];
  for (let r = 0; r < 3; r++) {
    const floor = await measured(() => closedLoop(CLIENTS, Math.max(2, SECONDS / 3), whoami));
    const read = await measured(() => closedLoop(CLIENTS, Math.max(2, SECONDS / 3), get));
    rounds.push({ whoami_rps: floor.rps, kv_get_rps: read.rps, kv_get_p99_ms: read.p99_ms, ratio: Number((read.rps / floor.rps).toFixed(2)) });
  }
  const ratios = rounds.map((r) => r.ratio).sort((a, b) => a - b);
  return { rounds, median_ratio: ratios[1] };
}

/** The same values by primary key in plain SQL: what the database alone costs. */
async function sqlRuns(url: string, projectId: string) {
  const sql = postgres(url, { max: CLIENTS, onnotice: () => {} });
  await sql`create table if not exists bench_kv (project_id text not null, key text collate "C" not null, value text not null, primary key (project_id, key))`;
  const out: Record<string, unknown> = {};
  for (const [label, bytes] of [
    ["1kb", 1024],
    ["256kb", 256 * 1024],
  ] as const) {
    const value = JSON.stringify(jsonOfSize(bytes));
    const counters = new Array(CLIENTS).fill(0);
    const keyOf = (w: number) => `bench/${label}/${w}/${counters[w]++ % 20}`;
    const set = async (w: number) => {
      await sql`insert into bench_kv (project_id, key, value) values (${projectId}, ${keyOf(w)}, ${value})
                on conflict (project_id, key) do update set value = excluded.value`;
    };
    for (let w = 0; w < CLIENTS; w++) for (let i = 0; i < 20; i++) await set(w);
    out[`sql_upsert_${label}`] = await closedLoop(CLIENTS, SECONDS, set);
    out[`sql_select_${label}`] = await closedLoop(CLIENTS, SECONDS, async (w) => {
      const rows = await sql`select value from bench_kv where project_id = ${projectId} and key = ${keyOf(w)}`;
      if (rows[0].value.length < bytes) throw new Error("short value");
    });
  }
  await sql.end();
  return out;
}

const mbps = (bytes: number, ms: number) => Number((bytes / 1024 / 1024 / (ms / 1000)).toFixed(1));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Upload through the presigned flow and download through file_get's URL, 3 times each; median MB/s. */
async function fileRuns(base: string, key: string, bytes: Buffer) {
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const up: number[] = [];
  const down: number[] = [];
  for (let run = 0; run < 3; run++) {
    const path = `${base}/api/v1/files/bench%2Fbig-${run}.bin`;
    const t0 = performance.now();
    const started = JSON.parse(
      (await http("PUT", path, JSON.stringify({ upload: { size: bytes.length, content_type: "application/octet-stream" } }), auth)).body.toString(),
    );
    const put = await http("PUT", started.upload_url, bytes, started.upload_headers);
    if (put.status !== 200) throw new Error(`upload PUT ${put.status} ${put.body.toString().slice(0, 200)}`);
    const done = await http("PUT", path, JSON.stringify({ complete: started.upload_id }), auth);
    if (done.status !== 200) throw new Error(`complete ${done.status} ${done.body.toString()}`);
    up.push(mbps(bytes.length, performance.now() - t0));
    const t1 = performance.now();
    const got = JSON.parse((await http("GET", path, undefined, auth)).body.toString());
    const file = await http("GET", got.download_url);
    if (file.body.length !== bytes.length) throw new Error(`download ${file.status} ${file.body.length}`);
    down.push(mbps(bytes.length, performance.now() - t1));
  }
  return { upload_mb_s: median(up), download_mb_s: median(down), runs_upload: up, runs_download: down };
}

async function baselineFs(bytes: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), "brynth-bench-fs-"));
  const t0 = performance.now();
  await writeFile(join(dir, "f"), bytes);
  const w = mbps(bytes.length, performance.now() - t0);
  const t1 = performance.now();
  await readFile(join(dir, "f"));
  const r = mbps(bytes.length, performance.now() - t1);
  rmSync(dir, { recursive: true, force: true });
  return { write_mb_s: w, read_mb_s: r };
}

async function baselineS3(endpoint: string, bytes: Buffer) {
  const s3 = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const t0 = performance.now();
  await s3.send(new PutObjectCommand({ Bucket: "brynth", Key: "baseline/big", Body: bytes, ContentLength: bytes.length }));
  const w = mbps(bytes.length, performance.now() - t0);
  const t1 = performance.now();
  const got = await s3.send(new GetObjectCommand({ Bucket: "brynth", Key: "baseline/big" }));
  await got.Body!.transformToByteArray();
  const r = mbps(bytes.length, performance.now() - t1);
  s3.destroy();
  return { sdk_put_mb_s: w, sdk_get_mb_s: r };
}

async function main() {
  const result: Record<string, unknown> = { clients: CLIENTS, seconds: SECONDS, file_mb: FILE_MB };
  const local = await startBrynth({});
  try {
    result.kv_rest = await kvRuns(local);
    const baselineDb = await freshDatabase("brynth_bench_disk_sql");
    result.kv_sql_baseline = await sqlRuns(baselineDb.url, local.projectId).finally(() => baselineDb.drop());
    const bytes = randomBytes(FILE_MB * 1024 * 1024);
    result.files_local = await fileRuns(local.url, local.key, bytes);
    result.files_local_baseline = await baselineFs(bytes);
  } finally {
    await local.stop();
  }

  const s3dir = mkdtempSync(join(tmpdir(), "brynth-bench-s3rver-"));
  const s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: "brynth" }] });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const s3 = await startBrynth({
    S3_BUCKET: "brynth",
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
  });
  try {
    const bytes = randomBytes(FILE_MB * 1024 * 1024);
    result.files_s3 = await fileRuns(s3.url, s3.key, bytes);
    result.files_s3_baseline = await baselineS3(endpoint, bytes);
  } finally {
    await s3.stop();
    const closing = s3rver.close();
    s3rver.httpServer?.closeAllConnections();
    await closing;
    rmSync(s3dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(result, null, 2));
  agent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
