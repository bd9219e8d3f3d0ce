import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { rawMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { authorizeQuery, connect, decide, pkce, REDIRECT, register, token } from "./oauth-steps";

// Apart from oauth-bad-input.test.ts: each file registers clients from one address, and the registration throttle
// (AUTH_FAILURES_PER_MINUTE) counts them all.
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let base: string;
const call = (name: string, args: unknown = {}) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

beforeAll(async () => {
  server = await startApiServer();
  base = server.url;
  seeded = await seedProject({ name: "OAuth codes and links" });
});
afterAll(() => server.close());

describe("token endpoint", () => {
  it("asks the token request for redirect_uri only when the authorization request named it (RFC 6749 §4.1.3)", async () => {
    const client = (await register(base)).body;
    const codeFor = async (redirect: string | null) => {
      const { verifier, challenge } = pkce();
      const q = authorizeQuery(client.client_id, challenge, { redirect_uri: redirect });
      const approved = await decide(base, q, { decision: "approve", project_id: seeded.project.id, scope: "ledger:read" });
      expect(approved.target?.origin + (approved.target?.pathname ?? "")).toBe(REDIRECT);
      return { grant_type: "authorization_code", code: approved.target?.searchParams.get("code") ?? "", client_id: client.client_id, code_verifier: verifier };
    };
    // Named: the token request must repeat it, and a refusal leaves the code usable.
    const named = await codeFor(REDIRECT);
    const missing = await token(base, named);
    expect(missing.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("redirect_uri is missing") });
    expect((await token(base, { ...named, redirect_uri: REDIRECT })).status).toBe(200);
    // Not named (the client registered one URI): the token request may omit it or name that one, but no other.
    const omitted = await codeFor(null);
    expect((await token(base, { ...omitted, redirect_uri: "http://127.0.0.1:8976/other" })).body.error).toBe("invalid_grant");
    expect((await token(base, omitted)).status).toBe(200);
    expect((await token(base, { ...(await codeFor(null)), redirect_uri: REDIRECT })).status).toBe(200);
  });
});

describe("/mcp with an access token", () => {
  it("gives get_attachment links that download for the grant's life, and stop with it", async () => {
    const box = await seedMailbox(seeded.project.id);
    const mail = await seedReceivedMail(seeded.project.id, box.id);
    const { client, tokens } = await connect(base, { projectId: seeded.project.id, scopes: ["message_read"], mailboxId: box.id });
    const got = await (
      await rawMcp(base, call("get_attachment", { threadId: mail.thread, attachmentId: mail.attachment }), bearer(tokens.access_token))
    ).json();
    const url = got.result.structuredContent.download_url as string;
    expect((await fetch(url)).status).toBe(200);
    await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }),
    });
    expect((await fetch(url)).status).toBe(410);
  });
});

describe("loopback redirect URIs (RFC 8252 §7.3)", () => {
  it("take any port at /authorize for http on a loopback IP, and the code goes to that port and only to it", async () => {
    const client = (await register(base, { redirect_uris: [REDIRECT, "http://[::1]/cb", "http://localhost:7000/cb", "https://app.example:8443/cb"] })).body;
    const { verifier, challenge } = pkce();
    // Before: refused with an error page, so a native client on a fresh ephemeral port could not connect.
    const ephemeral = "http://127.0.0.1:49152/callback";
    const approved = await decide(base, authorizeQuery(client.client_id, challenge, { redirect_uri: ephemeral }), {
      decision: "approve",
      project_id: seeded.project.id,
      scope: "ledger:read",
    });
    expect(`${approved.target?.origin}${approved.target?.pathname}`).toBe(ephemeral);
    const code = approved.target?.searchParams.get("code") ?? "";
    const form = { grant_type: "authorization_code", code, client_id: client.client_id, code_verifier: verifier };
    // The token request repeats the URI the authorization request used, port included.
    expect((await token(base, { ...form, redirect_uri: REDIRECT })).body.error).toBe("invalid_grant");
    expect((await token(base, { ...form, redirect_uri: ephemeral })).status).toBe(200);
    const denied = await decide(base, authorizeQuery(client.client_id, challenge, { redirect_uri: "http://[::1]:5555/cb" }), { decision: "deny" });
    expect([denied.target?.host, denied.target?.searchParams.get("error")]).toEqual(["[::1]:5555", "access_denied"]);
    // Only the port may differ, and only on a loopback IP: not a path, not localhost (a name), not https.
    for (const other of [
      "http://127.0.0.1:49152/other",
      "http://127.0.0.1:49152/callback?x=1",
      "http://localhost:7001/cb",
      "https://app.example:9443/cb",
      "http://127.0.0.2:8976/callback",
    ]) {
      const res = await fetch(`${base}/oauth/authorize?${authorizeQuery(client.client_id, challenge, { redirect_uri: other })}`, { redirect: "manual" });
      expect([res.status, res.headers.get("location")], other).toEqual([400, null]);
    }
  });
});
