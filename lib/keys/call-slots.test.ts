import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { concurrentCallLimit, takeCallSlot } from "@/lib/keys/call-slots";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const sleep = (ms: number) => new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms));

describe("tool calls one key runs at once", () => {
  it("lets a waiter that gave up leave the queue without taking a slot; the next one in line gets it", async () => {
    const held = await Promise.all(Array.from({ length: concurrentCallLimit() }, () => takeCallSlot("key_queue", new AbortController().signal)));
    const gone = new AbortController();
    const abandoned = takeCallSlot("key_queue", gone.signal);
    const next = takeCallSlot("key_queue", new AbortController().signal);
    gone.abort();
    await expect(abandoned).rejects.toMatchObject({ code: "service_unavailable" });
    held[0]();
    const release = await next;
    release();
    for (const r of held.slice(1)) r();
  });
});

// PGlite runs one statement at a time: only PostgreSQL has a pool that one key's calls could fill.
describe.runIf(onPostgres)("one key's burst and the database pool", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(() => server.close());

  it("leaves connections for another project while 20 calls of one key wait on a row lock", async () => {
    const a = await seedProject({ name: "Burst" });
    const b = await seedProject({ name: "Bystander" });
    const put = (secret: string, value: number) =>
      fetch(`${server.url}/api/v1/kv/hot`, {
        method: "PUT",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ value }),
      });
    expect((await put(a.secret, 0)).status).toBe(200);
    // Another session holds the key's row: every kv_set of it waits for the lock inside its transaction.
    const locker = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    let unlock = () => {};
    const locked = new Promise<void>((ready) => {
      void locker.begin(async (tx) => {
        await tx`select 1 from kv_entries where project_id = ${a.project.id} for update`;
        ready();
        await new Promise<void>((r) => (unlock = r));
      });
    });
    await locked;
    try {
      // 20 calls at once, within the key's per-minute limit: each took a pooled connection (10) and held it waiting.
      const burst = Array.from({ length: 20 }, (_, i) => put(a.secret, i + 1));
      await sleep(500);
      // The other project's call gets a connection now, not once the lock is gone.
      const other = put(b.secret, 1);
      expect(await Promise.race([other.then((r) => r.status), sleep(10_000)])).toBe(200);
      unlock();
      expect((await Promise.all(burst)).map((r) => r.status)).toEqual(Array(20).fill(200));
    } finally {
      unlock();
      await locker.end();
    }
  });
});
