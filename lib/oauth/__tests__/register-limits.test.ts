import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { oauthClients } from "@/lib/db/schema/oauth";
import { startApiServer } from "@/lib/testing/api-server";
import { register } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

describe("dynamic registration limits", () => {
  it("caps clients nobody approved, forgetting those older than a day first", async () => {
    const db = await getDb();
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    const rows = (n: number, createdAt?: Date) =>
      Array.from({ length: n }, (_, i) => ({
        id: `oac_cap${createdAt ? "old" : "new"}${i}`,
        redirectUris: ["https://x.example/cb"],
        ...(createdAt ? { createdAt } : {}),
      }));
    await db.insert(oauthClients).values(rows(1000));
    const full = await register(server.url);
    expect(full.status).toBe(429);
    expect(full.body.error).toBe("temporarily_unavailable");
    await db.delete(oauthClients);
    await db.insert(oauthClients).values([...rows(999), ...rows(5, old)]);
    // The five stale ones go; 999 + this one fit.
    expect((await register(server.url)).status).toBe(201);
    expect((await db.select().from(oauthClients)).length).toBe(1000);
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
