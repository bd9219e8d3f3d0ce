import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { mailRejections } from "@/lib/db/schema/mail-events";
import { newId } from "@/lib/ids";
import { JobRunner } from "@/lib/jobs/job-runner";
import { waitFor } from "@/lib/mail/__tests__/helpers";
import { isStatementTimeout } from "@/lib/db/unavailable";
import { sealProject } from "@/lib/ledger/seal-entries";
import { scanSlice } from "@/lib/ledger/statements";
import { envSettings } from "@/lib/testing/env-settings";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";

/**
 * DATABASE_STATEMENT_TIMEOUT_MS on real PostgreSQL (PGlite times nothing out), through the tool path: a statement
 * stuck past the limit is service_unavailable, not a 500, and frees its connection; the ledger's verification scan,
 * long by nature, runs to the end.
 */
const TIMEOUT_MS = 300;
const POOL = 3;
const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith("postgres"));
const settings = envSettings("DATABASE_");
const body = (res: unknown) => JSON.parse((res as { content: { text: string }[] }).content[0].text);

describe.runIf(onPostgres)("statement timeout", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let seeded: Awaited<ReturnType<typeof seedProject>>;
  let mcp: Client;
  let admin: postgres.Sql;

  beforeAll(async () => {
    // The pool reads its limits when it opens: reopen it with a small one (and few connections, so a connection
    // the timeout spoiled would soon be met again).
    await closeDb();
    settings.set({ DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS), DATABASE_POOL_SIZE: String(POOL) });
    admin = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    server = await startApiServer();
    seeded = await seedProject({ scopes: ["disk", "ledger:read"] });
    ({ client: mcp } = await connectMcp(server.url, seeded.secret));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    await admin?.end();
    await closeDb();
    settings.restore();
  });

  it("gives every pooled connection the limits", async () => {
    const db = await getDb();
    const shown = await Promise.all(
      Array.from({ length: POOL * 2 }, () =>
        db.execute("select current_setting('statement_timeout') as s, current_setting('idle_in_transaction_session_timeout') as i"),
      ),
    );
    // The idle limit is the default, 60000 ms.
    expect(shown.map((r) => (r as unknown as { s: string; i: string }[])[0])).toEqual(Array(POOL * 2).fill({ s: `${TIMEOUT_MS}ms`, i: "1min" }));
  });

  it("answers a call stuck behind a lock service_unavailable once the limit passes, writes nothing, and the pool stays healthy", async () => {
    const blocker = await admin.reserve();
    try {
      await blocker`begin`;
      await blocker`lock table kv_entries in access exclusive mode`;
      const stuck = await mcp.callTool({ name: "kv_set", arguments: { key: "stuck", value: 1 } });
      expect(stuck.isError).toBe(true);
      expect(body(stuck)).toMatchObject({ code: "service_unavailable", message: expect.stringContaining("ran longer") });
      const rest = await fetch(`${server.url}/api/v1/kv/stuck-rest`, {
        method: "PUT",
        headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ value: 2 }),
      });
      expect(rest.status).toBe(503);
      expect(rest.headers.get("retry-after")).toBe("5");
      expect((await rest.json()).error.code).toBe("service_unavailable");
    } finally {
      await blocker`rollback`;
      blocker.release();
    }
    // More calls than connections, all at once: none meets a connection the cancel left broken.
    const calls = await Promise.all(Array.from({ length: POOL * 3 }, (_, i) => mcp.callTool({ name: "kv_set", arguments: { key: `after-${i}`, value: i } })));
    expect(calls.filter((c) => c.isError)).toEqual([]);
    for (const key of ["stuck", "stuck-rest"]) {
      expect((await mcp.callTool({ name: "kv_get", arguments: { key } })).structuredContent).toMatchObject({ value: null, version: null });
    }
    expect((await mcp.callTool({ name: "kv_get", arguments: { key: "after-4" } })).structuredContent).toMatchObject({ value: 4 });
  });

  it("lets ledger_verify's scan run past the limit, and the lift ends with it", async () => {
    // Entries whose hashing takes a slice well past the limit: 4 KB digests (stored compressed) that the scan
    // hashes whole. Garbage hashes: the scan still reads its whole slice before naming the first bad seq.
    const { id: projectId } = seeded.project;
    const n = 60_000;
    await sealProject(await getDb(), projectId);
    // Under the chain head's lock, as the sealer takes it, so no entry sealed meanwhile takes one of these seqs.
    const start = await admin.begin(async (tx) => {
      const [{ seq }] = await tx<{ seq: string }[]>`select seq from ledger_heads where project_id = ${projectId} for update`;
      await tx`insert into ledger_entries (project_id, seq, ts, op, actor_type, via, input_digest, prev_hash, hash)
        select ${projectId}, ${seq}::bigint + g, now(), 'bench.op', 'key', 'mcp', repeat(md5(g::text), 128), md5((g - 1)::text), md5(g::text)
        from generate_series(1, ${n}) as g`;
      await tx`update ledger_heads set seq = ${seq}::bigint + ${n} where project_id = ${projectId}`;
      return Number(seq) + 1;
    });
    await admin`analyze ledger_entries`;

    // Without the lift, the same scan is cut: the work really is longer than the limit.
    const unlifted = await scanSlice(await getDb(), projectId, start, start - 1 + n, null).catch((e: unknown) => e);
    expect(isStatementTimeout(unlifted)).toBe(true);

    const verified = await mcp.callTool({ name: "ledger_verify", arguments: { from_seq: start } });
    expect(verified.isError, JSON.stringify(verified.content)).toBeFalsy();
    expect(verified.structuredContent).toMatchObject({ ok: false, from_seq: start, first_inconsistent_seq: start });

    const db = await getDb();
    const shown = await Promise.all(Array.from({ length: POOL * 2 }, () => db.execute("show statement_timeout")));
    expect(new Set(shown.map((r) => (r as unknown as { statement_timeout: string }[])[0].statement_timeout))).toEqual(new Set([`${TIMEOUT_MS}ms`]));
  });

  it("lets the job runner's retention purges wait past the limit", async () => {
    const db = await getDb();
    const old = newId("rej");
    await db
      .insert(mailRejections)
      .values({ id: old, projectId: seeded.project.id, rcpt: "x@y.example", smtpCode: "550", reason: "old", at: new Date(Date.now() - 40 * 86_400_000) });
    const blocker = await admin.reserve();
    const errors: unknown[] = [];
    const runner = new JobRunner(db, { concurrency: 1, pollMs: 60_000, onError: (err) => errors.push(err) });
    try {
      await blocker`begin`;
      await blocker`lock table mail_rejections in access exclusive mode`;
      // The runner's first pass purges at once, and waits on the lock twice the limit.
      await runner.start();
      await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
    } finally {
      await blocker`rollback`;
      blocker.release();
    }
    // Cut by the limit, the purge failed and waited for the next pass, 30 s on; lifted, it finishes now.
    await waitFor(async () => (await db.select().from(mailRejections).where(eq(mailRejections.id, old))).length === 0, 5_000);
    await runner.stop();
    expect(errors).toEqual([]);
  });
});
