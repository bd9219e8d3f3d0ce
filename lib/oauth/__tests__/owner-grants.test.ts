import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { basicOwner, connect } from "./oauth-steps";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Grants" });
});
afterAll(() => server.close());

const owner = (method: string, path: string) =>
  fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: basicOwner, "x-brynth-project": seeded.project.id, origin: server.url } });
const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("owner REST for OAuth grants", () => {
  it("lists the project's grants with client, scopes, mailbox and last use, and revokes one at once", async () => {
    const box = await seedMailbox(seeded.project.id);
    const { tokens } = await connect(server.url, { projectId: seeded.project.id, scopes: ["inbox_read"], mailboxId: box.id });
    expect((await rawMcp(server.url, list, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    const grants = async () => (await (await owner("GET", "/owner/oauth/grants")).json()).grants;
    // last_used_at is written off the request's path (authenticate-token.ts), so it lands a moment after the call.
    await expect.poll(async () => (await grants())[0]?.last_used_at ?? null).not.toBeNull();
    const listed = await grants();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      client_name: "Test client",
      redirect_hosts: ["127.0.0.1:8976"],
      project_id: seeded.project.id,
      scopes: ["inbox_read"],
      mailbox_id: box.id,
      mailbox_address: box.address,
    });
    expect(JSON.stringify(listed)).not.toContain(tokens.access_token.slice(4, 20));

    const revoked = await owner("DELETE", `/owner/oauth/grants/${listed[0].id}`);
    expect(revoked.status).toBe(200);
    expect((await rawMcp(server.url, list, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    expect((await (await owner("GET", "/owner/oauth/grants")).json()).grants).toEqual([]);
    const again = await owner("DELETE", `/owner/oauth/grants/${listed[0].id}`);
    expect(again.status).toBe(404);
    expect((await again.json()).error.code).toBe("NOT_FOUND");
  });

  it("is for the owner only: an API key and an OAuth token are refused", async () => {
    const { tokens } = await connect(server.url, { projectId: seeded.project.id, scopes: ["ledger:read"] });
    for (const credential of [seeded.secret, tokens.access_token]) {
      const res = await fetch(`${server.url}/api/v1/owner/oauth/grants`, { headers: { authorization: `Bearer ${credential}` } });
      expect(res.status).toBe(401);
    }
  });
});
