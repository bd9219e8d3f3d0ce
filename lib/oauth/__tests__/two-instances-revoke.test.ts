import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { oauthClients, oauthGrants } from "@/lib/db/schema/oauth";
import { newId } from "@/lib/ids";
import { issueTokens } from "@/lib/oauth/issue-tokens";
import { revokeGrant } from "@/lib/oauth/revoke-grant";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { useTwoInstances } from "@/lib/testing/spawn-instance";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");
const PROPAGATION = { timeout: 2000, interval: 20 };
const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

// Instances share state only through Postgres; PGlite is single-process by design (data-dir lock).
describe.runIf(onPostgres)("OAuth grants on two instances", () => {
  const instances = useTwoInstances();

  it("refuses a revoked grant's token on every instance, though each had it cached", async () => {
    const { project, owner } = await seedProject({ scopes: ["ledger:read"] });
    const db = await getDb();
    const [client] = await db
      .insert(oauthClients)
      .values({ id: newId("oac"), clientName: "two", redirectUris: ["https://x.example/cb"] })
      .returning();
    // Each test instance has its own public URL, so each gets a grant for its own /mcp (one deployment shares one).
    const grants = await Promise.all(
      [instances.a.url, instances.b.url].map(async (url) => {
        const [grant] = await db
          .insert(oauthGrants)
          .values({ id: newId("ogr"), projectId: project.id, ownerId: owner.id, clientId: client.id, scopes: ["ledger:read"], resource: `${url}/mcp` })
          .returning();
        return { grant, url, token: (await issueTokens(db, grant)).access_token };
      }),
    );
    const status = async (g: (typeof grants)[number]) => (await rawMcp(g.url, list, { authorization: `Bearer ${g.token}` })).status;
    for (const g of grants) {
      expect(await status(g)).toBe(200);
      expect(await status(g)).toBe(200);
    }
    // A token for A's /mcp is not one for B's: the audience check.
    expect((await rawMcp(instances.b.url, list, { authorization: `Bearer ${grants[0].token}` })).status).toBe(401);
    await db.transaction(async (tx) => {
      for (const g of grants) await revokeGrant(tx, { projectId: project.id, grantId: g.grant.id });
    });
    for (const g of grants) await expect.poll(() => status(g), PROPAGATION).toBe(401);
  });
});
