import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { sql } from "drizzle-orm";
import { env } from "@/lib/env";
import { beginStopping, resetServerStopping } from "@/lib/services/server-stopping";
import { resetReadiness } from "@/lib/services/readiness";
import { markStarting } from "@/lib/services/server-starting";
import { startApiServer } from "@/lib/testing/api-server";

/** GET /healthz and /readyz on the real fast path, as an orchestrator or a balancer asks them. */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());
afterEach(() => {
  markStarting(false);
  resetServerStopping();
  resetReadiness();
});

type Answer = { status: number; headers: Record<string, unknown>; body: string };
/** A request with exactly this Host (fetch sets its own), as a kubelet sends one: the pod's address. */
function probe(path: string, opts: { method?: string; host?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, path, method: opts.method ?? "GET", setHost: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setHeader("host", opts.host ?? url.host);
    req.on("error", reject);
    req.end();
  });
}
const json = (a: Answer) => JSON.parse(a.body);

describe("health probes", () => {
  it("answers liveness and readiness with 200, never cached, and refuses what is not GET or HEAD", async () => {
    const live = await probe("/healthz");
    expect([live.status, json(live)]).toEqual([200, { status: "ok" }]);
    expect(live.headers["cache-control"]).toBe("no-store");
    const ready = await probe("/readyz");
    expect([ready.status, json(ready)]).toEqual([200, { status: "ready", checks: { database: "ok" } }]);
    expect(ready.headers["cache-control"]).toBe("no-store");
    const head = await probe("/readyz", { method: "HEAD" });
    expect([head.status, head.body]).toEqual([200, ""]);
    const post = await probe("/readyz", { method: "POST" });
    expect(post.status).toBe(405);
    expect(json(post).error.code).toBe("method_not_allowed");
  });

  it("answers a probe addressed to the instance's own IP, while every other path still refuses that Host", async () => {
    for (const path of ["/healthz", "/readyz"]) expect((await probe(path, { host: "10.1.2.3:3000" })).status, path).toBe(200);
    const other = await probe("/api/v1/whoami", { host: "10.1.2.3:3000" });
    expect([other.status, json(other).error.code]).toEqual([421, "misdirected_request"]);
  });

  it("says starting from listen until the services have started, while liveness is already 200", async () => {
    markStarting(true);
    const starting = await probe("/readyz");
    expect([starting.status, json(starting)]).toEqual([503, { status: "starting" }]);
    expect((await probe("/healthz")).status).toBe(200);
    markStarting(false);
    expect((await probe("/readyz")).status).toBe(200);
  });

  it("says stopping once the instance begins to stop, while liveness stays 200 for the drain", async () => {
    beginStopping();
    const ready = await probe("/readyz");
    expect([ready.status, json(ready)]).toEqual([503, { status: "stopping" }]);
    expect((await probe("/healthz")).status).toBe(200);
  });

  it("is not ready while the database does not answer within the check's time, and ready once it does", async () => {
    // Every pooled connection held in a transaction (PGlite has one): the check's query queues behind them.
    const db = await getDb();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holders = Array.from({ length: env().DATABASE_POOL_SIZE }, () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held;
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const answers = await Promise.all(Array.from({ length: 20 }, () => probe("/readyz")));
    for (const a of answers) expect([a.status, json(a)]).toEqual([503, { status: "unavailable", checks: { database: "timeout" } }]);
    release();
    await Promise.all(holders);
    resetReadiness();
    const ready = await probe("/readyz");
    expect([ready.status, json(ready).status]).toEqual([200, "ready"]);
  });
});
