import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let apiKey: string;
const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;
const owner = { authorization: basic(OWNER_EMAIL, OWNER_PASSWORD), "content-type": "application/json" };

beforeAll(async () => {
  server = await startApiServer();
  apiKey = (await seedProject()).secret;
});
afterAll(() => server.close());

describe("owner REST", () => {
  it("creates a key with HTTP Basic, shows the secret once, and the key works at once", async () => {
    const res = await fetch(`${server.url}/api/v1/keys`, {
      method: "POST",
      headers: owner,
      body: JSON.stringify({ name: "script", scopes: ["ledger:read", "ledger:read", "disk"] }),
    });
    expect(res.status).toBe(201);
    const key = await res.json();
    expect(key.secret).toMatch(/^brk_live_[0-9A-Za-z]{32}$/);
    expect(key.scopes).toEqual(["ledger:read", "disk"]);
    const who = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect((await who.json()).key.id).toBe(key.id);

    const list = await (await fetch(`${server.url}/api/v1/keys`, { headers: owner })).json();
    const listed = list.keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list)).not.toContain(key.secret);

    const revoke = await fetch(`${server.url}/api/v1/keys/${key.id}`, { method: "DELETE", headers: owner });
    expect(revoke.status).toBe(200);
    const after = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(after.status).toBe(401);
    const again = await fetch(`${server.url}/api/v1/keys/${key.id}`, { method: "DELETE", headers: owner });
    expect(again.status).toBe(404);
  });

  it("refuses API keys, wrong passwords and bad input on owner routes", async () => {
    const withKey = await fetch(`${server.url}/api/v1/keys`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(withKey.status).toBe(401);
    const wrong = await fetch(`${server.url}/api/v1/keys`, { headers: { authorization: basic(OWNER_EMAIL, "nope nope nope") } });
    expect(wrong.status).toBe(401);
    const bad = await fetch(`${server.url}/api/v1/keys`, { method: "POST", headers: owner, body: JSON.stringify({ name: "", scopes: ["root"] }) });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.message).toMatch(/name/);
    expect(body.error.message).toMatch(/scopes/);
    const foreign = await fetch(`${server.url}/api/v1/keys`, {
      method: "POST",
      headers: { ...owner, origin: "http://evil.example" },
      body: JSON.stringify({ name: "x", scopes: ["disk"] }),
    });
    expect(foreign.status).toBe(403);
  });

  it("acts on the project named by X-Brynth-Project and refuses an unknown one", async () => {
    const other = await seedProject({ name: "Second" });
    const res = await fetch(`${server.url}/api/v1/keys`, { headers: { ...owner, "x-brynth-project": other.project.id } });
    const ids = (await res.json()).keys.map((k: { id: string }) => k.id);
    expect(ids).toEqual([other.key.id]);
    const unknown = await fetch(`${server.url}/api/v1/keys`, { headers: { ...owner, "x-brynth-project": "prj_nope" } });
    expect(unknown.status).toBe(404);
  });

  it("serves an OpenAPI document generated from the registry", async () => {
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/v1/whoami"].get.operationId).toBe("whoami");
    expect(doc.paths["/api/v1/ledger"].get.parameters.map((p: { name: string }) => p.name)).toContain("since");
    expect(doc.paths["/api/v1/keys"].post.operationId).toBe("keys_create");
  });

  it("answers unknown routes 404 and wrong methods 405 as JSON errors", async () => {
    expect((await fetch(`${server.url}/api/v1/nothing`)).status).toBe(404);
    const res = await fetch(`${server.url}/api/v1/whoami`, { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(405);
  });
});
