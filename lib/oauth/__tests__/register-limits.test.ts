import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { oauthClients } from "@/lib/db/schema/oauth";
import { startApiServer } from "@/lib/testing/api-server";
import { MAX_UNUSED_CLIENTS } from "@/lib/oauth/register-client";
import { register } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

describe("dynamic registration limits", () => {
  it("caps clients nobody approved, forgetting those older than a day first, then the oldest", async () => {
    const db = await getDb();
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    const rows = (n: number, tag: string, createdAt?: Date) =>
      Array.from({ length: n }, (_, i) => ({ id: `oac_cap${tag}${i}`, redirectUris: ["https://x.example/cb"], ...(createdAt ? { createdAt } : {}) }));
    await db.insert(oauthClients).values([...rows(999, "new"), ...rows(5, "old", old)]);
    // The five stale ones go; 999 + this one fit.
    expect((await register(server.url)).status).toBe(201);
    expect((await db.select().from(oauthClients)).length).toBe(MAX_UNUSED_CLIENTS);
    await db.delete(oauthClients);
    // Found by helper-102: full, registration was refused to everyone ("try again tomorrow"), so one party
    // registering 20 a minute per address kept every new MCP client out. Now the oldest unapproved one makes room;
    // an approved client (one with a grant or a use) is never pushed out.
    const hourAgo = new Date(Date.now() - 3600_000);
    await db
      .insert(oauthClients)
      .values([
        { id: "oac_capused", redirectUris: ["https://x.example/cb"], createdAt: new Date(hourAgo.getTime() - 1000), lastUsedAt: hourAgo },
        ...rows(1, "first", hourAgo),
        ...rows(MAX_UNUSED_CLIENTS - 1, "flood"),
      ]);
    const genuine = await register(server.url);
    expect(genuine.status).toBe(201);
    const ids = (await db.select({ id: oauthClients.id }).from(oauthClients)).map((r) => r.id);
    expect(ids).toContain(genuine.body.client_id);
    expect(ids).toContain("oac_capused");
    expect(ids).not.toContain("oac_capfirst0");
    expect(ids.length).toBe(MAX_UNUSED_CLIENTS + 1);
    await db.delete(oauthClients);
  });

  it("throttles registrations per address with 429 and Retry-After", async () => {
    let last: Awaited<ReturnType<typeof register>> | undefined;
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      last = await register(server.url);
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.body.error).toBe("temporarily_unavailable");
    const raw = await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://a.example/cb"] }),
    });
    expect(raw.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
