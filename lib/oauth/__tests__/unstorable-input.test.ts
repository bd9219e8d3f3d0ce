import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { oauthClients, oauthCodes } from "@/lib/db/schema/oauth";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { authorizeQuery, decide, pkce, register, startAuthorize, token } from "./oauth-steps";

/**
 * A NUL reached the authorization server's lookups and inserts, and PostgreSQL refused it there: a 500 on every
 * endpoint. Each is the caller's error, naming the field, and writes nothing.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let base: string;
const rows = async (table: typeof oauthClients | typeof oauthCodes) => (await (await getDb()).select({ n: count() }).from(table))[0].n;

beforeAll(async () => {
  server = await startApiServer();
  base = server.url;
  seeded = await seedProject({ name: "Unstorable" });
});
afterAll(() => server.close());

describe("text PostgreSQL cannot hold", () => {
  it("is refused at registration, naming the field", async () => {
    const before = await rows(oauthClients);
    for (const [field, body] of [
      ["client_name", { client_name: "a\u0000b" }],
      ["redirect_uris.0", { redirect_uris: ["http://127.0.0.1:1/c\u0000b"] }],
      ["logo_uri", { logo_uri: "https://x.example/\u0000" }],
      ["scope", { scope: "inbox_read\u0000" }],
    ] as const) {
      const res = await register(base, body);
      expect(res.status, field).toBe(400);
      expect(res.body.error_description, field).toContain(`${field}: must not contain a NUL`);
    }
    expect(await rows(oauthClients)).toBe(before);
  });

  it("is refused at the token and revocation endpoints, in the form or in Basic credentials", async () => {
    const client = (await register(base)).body;
    const nul = await token(base, { grant_type: "authorization_code", client_id: "oac_\u0000", code: "x", code_verifier: "y" });
    expect(nul).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "client_id must not contain a NUL character (U+0000)." } });
    const refresh = await token(base, { grant_type: "refresh_token", client_id: client.client_id, refresh_token: "ort_\u0000" });
    expect(refresh).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    const basic = await token(
      base,
      { grant_type: "refresh_token", refresh_token: "ort_x" },
      { authorization: `Basic ${Buffer.from("oac_%00:s").toString("base64")}` },
    );
    expect(basic).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "oac_\u0000", token: "x" }),
    });
    expect(revoke.status).toBe(400);
    expect((await revoke.json()).error_description).toContain("client_id must not contain");
  });

  it("is refused in the authorization request and the owner's decision, writing no code", async () => {
    const client = (await register(base)).body;
    const { challenge } = pkce();
    const start = await startAuthorize(base, authorizeQuery(client.client_id, challenge, { client_id: "oac_\u0000" }));
    expect(start.status).toBe(400);
    expect(start.location).toBeNull();
    expect(start.text).toContain("client_id must not contain a NUL");
    const codes = await rows(oauthCodes);
    const q = authorizeQuery(client.client_id, challenge);
    const box = await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "inbox_read", mailbox_id: "mbx_\u0000" });
    expect(box.status).toBe(400);
    expect(box.text).toContain("mailbox_id: must not contain a NUL");
    const request = await decide(base, authorizeQuery(client.client_id, challenge, { client_id: "oac_\u0000" }), {
      decision: "approve",
      project_id: seeded.project.id,
      scope: "inbox_read",
    });
    expect(request.status).toBe(400);
    expect(request.text).toContain("client_id must not contain");
    expect(await rows(oauthCodes)).toBe(codes);
  });
});
