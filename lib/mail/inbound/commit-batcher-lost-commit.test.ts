import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DbHandle, getDb, getHandle } from "@/lib/db/client";
import { openPostgres } from "@/lib/db/postgres-driver";
import { query } from "@/lib/db/statement";
import { isCommitOutcomeUnknown } from "@/lib/db/transaction";
import { commitInbound } from "@/lib/mail/inbound/commit-batcher";
import { commitDroppingProxy } from "@/lib/testing/commit-dropping-proxy";

/**
 * A batch of inbound mail whose COMMIT answer was lost may be stored. It was retried message by message, on
 * duplicate checks read before the batch, and every message was stored a second time (found by helper-113). Now its
 * callers fail (their SMTP clients get 451 and retry; a redelivery of a stored Message-ID is skipped). PostgreSQL
 * only (a real connection).
 */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
let proxy: Awaited<ReturnType<typeof commitDroppingProxy>>;
beforeAll(async () => {
  if (onPostgres) proxy = await commitDroppingProxy();
});
afterAll(() => proxy?.close());

it.runIf(onPostgres)("fails the messages of a batch whose COMMIT answer was lost instead of storing them again", async () => {
  const db = await getDb();
  await query(db, sql`create table lost_batch (n int not null)`);
  // The batcher reads the database handle per flush: through the proxy for this test.
  const original = await getHandle();
  const g = globalThis as { __brynthDb?: Promise<DbHandle> };
  const psql = postgres(proxy.url, { max: 4, onnotice: () => {} });
  g.__brynthDb = Promise.resolve({ db: openPostgres(psql), kind: "postgres", sql: psql, close: () => psql.end({ timeout: 1 }) });
  try {
    // Both flushers held, so the two messages queue and are then stored in one batch.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busy = [1, 2].map(() => commitInbound(() => gate));
    // Each flusher takes its work once the database handle resolves; later works wait in the queue.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const messages = [1, 2].map((n) => commitInbound((tx) => query(tx, sql`insert into lost_batch (n) values (${n})`)).catch((err: unknown) => err));
    proxy.arm(/insert into lost_batch/i);
    release();
    await Promise.all(busy);
    const answers = await Promise.all(messages);
    expect(proxy.fired()).toBe(true);
    expect(answers.map(isCommitOutcomeUnknown)).toEqual([true, true]);
  } finally {
    g.__brynthDb = Promise.resolve(original);
    await psql.end({ timeout: 1 }).catch(() => {});
  }
  // Stored once, by the batch whose answer was lost.
  expect(await query<{ n: number }>(db, sql`select n from lost_batch order by n`)).toEqual([{ n: 1 }, { n: 2 }]);
});
