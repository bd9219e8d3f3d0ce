/**
 * Ledger: appends/s with 16 concurrent writers; ledger_verify over 1,000,000 entries; ledger_query with a filter on
 * 1,000,000 entries (p50/p99). PostgreSQL. Baseline in the same run: plain single-row inserts into an unchained
 * table by the same 16 writers. Run: npx tsx bench/ledger.ts
 */
import { sql } from "drizzle-orm";
import { freshDatabase } from "./support/processes";
import { closedLoop, percentiles } from "./support/load";

const ENTRIES = Number(process.env.ENTRIES ?? 1_000_000);
const WRITERS = 16;

async function main() {
  const db = await freshDatabase("brynth_bench_ledger");
  process.env.DATABASE_URL = db.url;
  process.env.DATABASE_POOL_SIZE = "20";
  process.env.DATA_DIR ??= "/tmp/brynth-bench";
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { migrateDb } = await import("@/lib/db/migrate");
  const { appendEntry } = await import("@/lib/ledger/append-entry");
  const { verifyLedger } = await import("@/lib/ledger/verify-ledger");
  const { queryLedger } = await import("@/lib/ledger/query-ledger");
  const { entryHash, GENESIS_HASH, digest } = await import("@/lib/ledger/canonical");
  const { createFirstOwner } = await import("@/lib/owners/create-owner");
  const { createProject } = await import("@/lib/projects/create-project");
  await migrateDb();
  const d = await getDb();
  const { owner, project } = await d.transaction((tx) => createFirstOwner(tx, { email: "b@example.com", password: "bench-password", projectName: "appends" }));
  const actor = (agent: string) => ({
    type: "key" as const,
    projectId: project.id,
    id: "key_bench",
    keyId: "key_bench",
    scopes: [],
    agent,
    platform: "custom",
    via: "mcp" as const,
  });

  // Appends: 16 writers, each append its own transaction (as a tool call's entry is); then wait until all are chained.
  const a0 = performance.now();
  const appends = await closedLoop(WRITERS, 5, async (w) => {
    await d.transaction((tx) => appendEntry(tx, { actor: actor(`w${w}`), op: "bench.append", input: { w } }));
  });
  const { sealProject: seal } = await import("@/lib/ledger/seal-entries");
  await seal(d, project.id);
  const chainedPerSecond = Math.round(appends.requests / ((performance.now() - a0) / 1000));
  const appendCheck = await verifyLedger(d, { actor: { projectId: project.id } });
  await d.execute(sql`create table bench_plain (id bigserial primary key, project_id text, op text, agent text, hash text)`);
  const baseline = await closedLoop(WRITERS, 5, async (w) => {
    await d.transaction((tx) =>
      tx.execute(sql`insert into bench_plain (project_id, op, agent, hash) values (${project.id}, 'bench', ${`w${w}`}, ${GENESIS_HASH})`),
    );
  });

  // 1,000,000 chained entries in a second project, written in bulk (hashes computed exactly as appendEntry does).
  const big = await d.transaction((tx) => createProject(tx, { ownerId: owner.id, ownerEmail: owner.email, name: "big" }));
  const { sealProject } = await import("@/lib/ledger/seal-entries");
  await sealProject(d, big.id);
  let prev = GENESIS_HASH;
  const t0 = Date.now();
  const BATCH = 4000; // 15 columns × 4,000 rows stays under the 65,534 bind parameters
  const agents = ["claude-code@a", "codex@b", "custom@c", "polyant@d"];
  const ops = ["whoami", "ledger.query", "inbox.claim", "kv.set", "email.send", "file.put", "ask.approval", "session.hello"];
  for (let start = 2; start <= ENTRIES; start += BATCH) {
    const rows = [];
    for (let seq = start; seq < Math.min(start + BATCH, ENTRIES + 1); seq++) {
      const e = {
        projectId: big.id,
        seq,
        ts: new Date(t0 + seq),
        op: ops[seq % ops.length],
        actorType: "key",
        actorId: "key_x",
        keyId: "key_x",
        agent: agents[seq % agents.length],
        platform: "custom",
        via: "mcp",
        subject: `obj_${seq % 10_000}`,
        inputDigest: digest({ seq }),
        outputDigest: null,
        prevHash: prev,
      };
      const hash = entryHash(e);
      rows.push({ ...e, hash });
      prev = hash;
    }
    const { ledgerEntries, ledgerHeads } = await import("@/lib/db/schema/ledger");
    // seq 1 is the project.create entry; re-link our first row to it.
    if (start === 2) {
      const [first] = await d.select().from(ledgerEntries).where(sql`${ledgerEntries.projectId} = ${big.id} and ${ledgerEntries.seq} = 1`);
      rows[0].prevHash = first.hash!; // seq 1 is sealed, so it has a hash
      rows[0].hash = entryHash(rows[0]);
      for (let i = 1; i < rows.length; i++) {
        rows[i].prevHash = rows[i - 1].hash;
        rows[i].hash = entryHash(rows[i]);
      }
      prev = rows[rows.length - 1].hash;
    }
    await d.insert(ledgerEntries).values(rows);
    await d
      .update(ledgerHeads)
      .set({ seq: rows[rows.length - 1].seq, hash: prev })
      .where(sql`${ledgerHeads.projectId} = ${big.id}`);
  }
  const loadSeconds = (Date.now() - t0) / 1000;
  await d.execute(sql`analyze ledger_entries`);

  const v0 = performance.now();
  const verified = await verifyLedger(d, { actor: { projectId: big.id } });
  const verifySeconds = (performance.now() - v0) / 1000;

  const filters = [{ op: "kv.set" }, { agent: "codex@b" }, { subject: "obj_42" }, { platform: "custom", op: "email.send" }];
  const queryLatencies: number[] = [];
  for (let i = 0; i < 400; i++) {
    const f = filters[i % filters.length];
    const t = performance.now();
    const page = await queryLedger(d, { actor: { projectId: big.id }, ...f, limit: 50 });
    if (i % 2 === 1 && page.nextCursor) await queryLedger(d, { actor: { projectId: big.id }, ...f, limit: 50, cursor: page.nextCursor });
    queryLatencies.push(performance.now() - t);
  }
  await closeDb();
  await db.drop();
  console.log(
    JSON.stringify(
      {
        bench: "ledger",
        appends_16_writers: { ...appends, chained_per_s_including_seal: chainedPerSecond, chain_ok: appendCheck.ok },
        baseline_plain_inserts_16_writers: baseline,
        append_ratio_vs_plain_insert: Number((appends.rps / baseline.rps).toFixed(2)),
        verify: { entries: verified.checked, ok: verified.ok, seconds: Number(verifySeconds.toFixed(2)), bulk_load_seconds: loadSeconds },
        query_filtered_1m: { queries: queryLatencies.length, ...percentiles(queryLatencies) },
        targets: { appends_per_s: 2000, verify_s: 5, query_p99_ms: 20 },
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
