import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { revokeKey } from "@/lib/keys/revoke-key";
import { register } from "@/lib/oauth/__tests__/oauth-steps";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedProject } from "@/lib/testing/seed";

/**
 * Found by helper-102: key, access-token and token-endpoint guesses were checked against the address's throttle
 * before their lookup and counted after it, so every guess in flight while the lookups waited on the pool passed
 * (200 sent at once: all 200 checked against a limit of 20). They are now charged first (chargedLookup), while one
 * credential's overlapping lookups share one charge, and a revoked key, a real one, is not counted as a guess.
 * Deterministic by keeping the pool busy for a moment, as on any loaded instance.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let clientId = "";
beforeAll(async () => {
  server = await startApiServer();
  clientId = (await register(server.url)).body.client_id;
});
afterAll(() => server.close());
const clearThrottle = () => (globalThis as { __brynthAuthFailures?: Map<string, unknown> }).__brynthAuthFailures?.clear();

/** `send` 200 times at once while every pooled connection sleeps: how many were answered `status`, how many 429. */
async function burst(count: number, send: (i: number) => Promise<number>) {
  clearThrottle();
  const db = await getDb();
  const busy = Promise.all(Array.from({ length: env().DATABASE_POOL_SIZE }, () => db.execute(sql`select pg_sleep(0.8)`)));
  await new Promise((r) => setTimeout(r, 100));
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  await busy;
  return statuses;
}
const whoami = (authorization: string) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization } }).then((r) => r.status);
const mcpPing = (authorization: string) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  }).then((r) => r.status);
const refreshGuess = (i: number) =>
  fetch(`${server.url}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: clientId, refresh_token: `ort_${String(i).padStart(40, "r")}` }),
  }).then((r) => r.status);
const limit = () => env().AUTH_FAILURES_PER_MINUTE;

/** PGlite runs one statement at a time: real concurrency is tested on PostgreSQL (ARCHITECTURE §5). */
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

describe("guesses sent at once", () => {
  it.runIf(onPostgres)("holds 200 wrong API keys to the limit, over REST and /mcp", async () => {
    const rest = await burst(200, (i) => whoami(`Bearer brk_live_${String(i).padStart(32, "k")}`));
    expect(rest.filter((s) => s === 401).length).toBeLessThanOrEqual(limit());
    expect(rest.filter((s) => s === 429).length).toBeGreaterThanOrEqual(200 - limit());
    const mcp = await burst(200, (i) => mcpPing(`Bearer brk_live_${String(i).padStart(32, "m")}`));
    expect(mcp.filter((s) => s === 401).length).toBeLessThanOrEqual(limit());
  });

  it.runIf(onPostgres)("holds 200 wrong OAuth access tokens on /mcp and 200 refresh-token guesses at /oauth/token to the limit", async () => {
    const tokens = await burst(200, (i) => mcpPing(`Bearer oat_${String(i).padStart(40, "t")}`));
    expect(tokens.filter((s) => s === 401).length).toBeLessThanOrEqual(limit());
    const refreshes = await burst(200, refreshGuess);
    expect(refreshes.filter((s) => s === 400).length).toBeLessThanOrEqual(limit());
    expect(refreshes.filter((s) => s === 429).length).toBeGreaterThanOrEqual(200 - limit());
  });

  it.runIf(onPostgres)("lets an agent's burst on a cold cache through: one key's overlapping lookups are one charge, refunded", async () => {
    const { secret } = await seedProject();
    const statuses = await burst(100, () => whoami(`Bearer ${secret}`));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Nothing was left on the address: a wrong key after it is still answered 401, not 429.
    expect(await whoami(`Bearer brk_live_${"z".repeat(32)}`)).toBe(401);
  });

  it("does not count an agent retrying with its revoked key against the healthy keys of its address", async () => {
    clearThrottle();
    const seeded = await seedProject();
    const old = await seedKey(seeded.project.id, ["ledger_read"]);
    await revokeKey(await getDb(), { actor: seeded.actor, keyId: old.key.id });
    for (let i = 0; i < limit() + 5; i++) expect(await whoami(`Bearer ${old.secret}`)).toBe(401);
    expect(await whoami(`Bearer ${seeded.secret}`)).toBe(200);
  });
});
