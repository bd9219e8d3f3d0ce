import { once } from "node:events";
import net from "node:net";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/*
 * postgres.js 3.4.9 with scripts/patch-postgres.mjs (porsager/postgres#1208). Unpatched, a query on a reserved
 * connection whose socket closed throws `Cannot read properties of null (reading 'write')` from a timer and never
 * settles, and the released connection then hangs every query of the pool: after a PostgreSQL restart an instance
 * stopped answering (the chaos run). Patched, the query fails with CONNECTION_CLOSED and the pool reconnects.
 */
const url = process.env.DATABASE_URL;
/** The promise's value, or "hung" after 3 s: the defects here left queries unsettled for ever. */
const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<string>((r) => setTimeout(() => r("hung"), 3000))]);

/**
 * A pool on our own sockets, so a test can cut one as a restarting server does (postgres.js's `socket` option, which
 * its types leave out); `sockets` lists them in the order they were opened.
 */
function poolOnOwnSockets(max: number) {
  const { hostname, port } = new URL(url!);
  const sockets: net.Socket[] = [];
  const socket = async () => {
    const s = net.connect(Number(port || 5432), hostname);
    await once(s, "connect");
    sockets.push(s);
    return s;
  };
  return { sql: postgres(url!, { max, ...({ socket } as object) }), sockets };
}

describe.runIf(url?.startsWith("postgres"))("a reserved connection whose socket closed", () => {
  it("fails its query with CONNECTION_CLOSED, throws nothing uncaught, and leaves the pool working", async () => {
    const uncaught: Error[] = [];
    const onUncaught = (err: Error) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    const { sql, sockets } = poolOnOwnSockets(2);
    try {
      const reserved = await sql.reserve();
      await reserved`select 1`;
      const cut = sockets.at(-1)!;
      cut.destroy();
      await once(cut, "close");
      const onClosed = await within(
        reserved`select 2 as n`.then(
          () => "answered",
          (e: { code?: string }) => e.code ?? String(e),
        ),
      );
      expect(onClosed).toBe("CONNECTION_CLOSED");
      reserved.release();
      expect(await within(sql`select 3 as n`.then((rows) => rows[0].n))).toBe(3);
      expect(await within(sql.begin((tx) => tx`select 4 as n`).then((rows) => rows[0].n))).toBe(4);
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await sql.end({ timeout: 1 });
    }
  });
});

describe.runIf(url?.startsWith("postgres"))("a connection cut while it reads the array types", () => {
  it("fails or retries its query, and leaves no unhandled rejection", async () => {
    // postgres.js reads the server's array types on each new connection, in a promise nobody awaited: a socket cut
    // then (the server restarting, a database dropped) was an unhandled rejection, which ends a Node process.
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on("unhandledRejection", onUnhandled);
    const { hostname, port } = new URL(url!);
    let cut = false;
    const socket = async () => {
      const s = net.connect(Number(port || 5432), hostname);
      await once(s, "connect");
      const write = s.write.bind(s) as (chunk: unknown, ...rest: unknown[]) => boolean;
      s.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (!cut && Buffer.from(chunk as Uint8Array).includes("typcategory")) {
          cut = true;
          // As a server that goes away resets the connection (a database dropped with force, in CI).
          s.destroy(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -104, syscall: "read" }));
          return false;
        }
        return write(chunk, ...rest);
      }) as typeof s.write;
      return s;
    };
    const sql = postgres(url!, { max: 1, ...({ socket } as object) });
    try {
      const first = await within(
        sql`select 1 as n`.then(
          (rows) => rows[0].n as number,
          (e: { code?: string }) => e.code ?? String(e),
        ),
      );
      expect(cut).toBe(true);
      expect([1, "CONNECTION_CLOSED", "ECONNRESET"]).toContain(first);
      expect(await within(sql`select 2 as n`.then((rows) => rows[0].n))).toBe(2);
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await sql.end({ timeout: 1 });
    }
  });
});

describe.runIf(url?.startsWith("postgres"))("a connection whose socket closed during a query", () => {
  it.each([
    ["a reset (the socket's error event)", (s: net.Socket) => s.destroy(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))],
    ["a plain close", (s: net.Socket) => s.destroy()],
  ])("fails the query and lets sql.end() finish at once after %s", async (_, cut) => {
    // porsager/postgres#1130: the failed query stayed the connection's current one, and end() waited for it for ever
    // (our shutdown sat out end's timeout after every PostgreSQL restart).
    const { sql, sockets } = poolOnOwnSockets(1);
    await sql`select 1`;
    const sleeping = sql`select pg_sleep(30)`.then(
      () => "answered",
      (e: { code?: string }) => e.code ?? String(e),
    );
    await new Promise((r) => setTimeout(r, 100));
    cut(sockets[0]);
    expect(["CONNECTION_CLOSED", "ECONNRESET"]).toContain(await within(sleeping));
    // No timeout: unpatched, this never settles.
    expect(await within(sql.end().then(() => "ended"))).toBe("ended");
  });
});

describe.runIf(url?.startsWith("postgres"))("a reserve() waiting when a connection closes", () => {
  it("is given the reconnected connection instead of being dropped", async () => {
    // Unpatched, the closed connection reconnected with the waiting reserve() as its first query, took it off the
    // pool's queue, fetched the array types and then left it: it never settled (a transaction, and its request, hung
    // for ever after a PostgreSQL restart).
    const { sql, sockets } = poolOnOwnSockets(1);
    try {
      const held = await sql.reserve();
      await held`select 1`;
      const waiting = sql.reserve();
      await new Promise((r) => setTimeout(r, 100));
      sockets[0].destroy();
      const got = await within(
        waiting.then(
          async (conn) => (await conn`select 5 as n`)[0].n,
          (e: { code?: string }) => e.code ?? String(e),
        ),
      );
      expect(got).toBe(5);
      held.release();
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it("is rejected when its connection cannot open, and the pool serves once the server is back", async () => {
    // A rejected reserve() left on the queue was handed a connection later (a settled promise's resolve), and that
    // connection was lost to the pool: every later query waited for ever.
    const refusing = net.createServer((s) => s.resetAndDestroy());
    await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", r));
    const { hostname, port } = new URL(url!);
    let down = true;
    // A refused socket is handed over before it fails, as the driver's own is: its error and close reach the driver.
    const socket = async () => {
      if (down) return net.connect((refusing.address() as net.AddressInfo).port, "127.0.0.1");
      const s = net.connect(Number(port || 5432), hostname);
      await once(s, "connect");
      return s;
    };
    const sql = postgres(url!, { max: 1, backoff: () => 0.05, ...({ socket } as object) });
    try {
      expect(
        await within(
          sql.reserve().then(
            () => "reserved",
            (e: { code?: string }) => e.code ?? String(e),
          ),
        ),
      ).toBe("ECONNRESET");
      await new Promise((r) => setTimeout(r, 200));
      down = false;
      expect(await within(sql`select 6 as n`.then((rows) => rows[0].n))).toBe(6);
      expect(await within(sql.reserve().then(async (conn) => (await conn`select 7 as n`)[0].n))).toBe(7);
    } finally {
      await sql.end({ timeout: 1 });
      refusing.close();
    }
  });
});
