import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * "Check DNS" on a custom domain racing its removal. The check reads the domain, then waits on DNS (seconds in
 * production: MAIL_DNS_TIMEOUT_MS × 2 tries); a removal committed meanwhile leaves the check's write with no row.
 * Before, the route then read `row.domain` of undefined: a 500. The system resolver is replaced so the lookup waits.
 * The lookup runs before the route's transaction opens (OwnerRoute.prepare): the removal, on the pool's only
 * connection, goes through while it waits.
 */
let gate: () => void = () => {};
let entered: () => void = () => {};
const inDns = new Promise<void>((r) => {
  entered = r;
});
const released = new Promise<void>((r) => {
  gate = r;
});

vi.mock("node:dns", async (orig) => {
  const real = await orig<typeof import("node:dns")>();
  class Resolver {
    async resolveMx(): Promise<never> {
      entered();
      await released;
      throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
    }
    async resolveTxt(): Promise<never> {
      await released;
      throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
    }
  }
  const promises = { ...real.promises, Resolver };
  return { ...real, default: { ...real, promises }, promises };
});

const { ownerClient } = await import("@/lib/owner-api/__tests__/owner-client");
const { closeDb } = await import("@/lib/db/client");
const { envSettings } = await import("@/lib/testing/env-settings");
const settings = envSettings("DATABASE_");
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  // One pooled connection: a check that held its transaction open while DNS answered would hold up every request.
  await closeDb();
  settings.set({ DATABASE_POOL_SIZE: "1" });
  c = await ownerClient("Domain race");
});
afterAll(async () => {
  await c.server.close();
  await closeDb();
  settings.restore();
});

// Real concurrency: PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))("a domain check racing the domain's removal", () => {
  it("waits on DNS with no transaction open, and answers 404 (never a 500) when the domain is removed meanwhile", async () => {
    const added = await c.call("POST", "/owner/mail/domains", { domain: "raced-check.example.org" });
    expect(added.status).toBe(201);
    const check = c.call("POST", `/owner/mail/domains/${added.body.id}/check`);
    await inDns;
    const removed = await c.call("DELETE", `/owner/mail/domains/${added.body.id}`);
    expect(removed.status).toBe(200);
    gate();
    const answer = await check;
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining(added.body.id) });
  });
});
