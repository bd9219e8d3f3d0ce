import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { getDb } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { oauthClients, oauthGrants } from "@/lib/db/schema/oauth";
import { owners } from "@/lib/db/schema/owners";
import { newId } from "@/lib/ids";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { allScopes } from "@/lib/keys/scopes";
import { issueTokens } from "@/lib/oauth/issue-tokens";
import { mcpResource } from "@/lib/oauth/oauth-config";
import { ownerProjects } from "@/lib/owners/find-owner";
import { hashPassword } from "@/lib/owners/password";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { createProject } from "@/lib/projects/create-project";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp, rawMcp } from "@/lib/testing/mcp-client";
import { OWNER_EMAIL, OWNER_PASSWORD, seedKey, seedProject } from "@/lib/testing/seed";

/**
 * Issue 19 item 8: what the owner does in the dashboard (mailboxes, mail, Disk) a script does over the tools' REST
 * routes with the owner's own credentials, acting as the owner on the project of X-Brynth-Project. Over a real server
 * and real HTTP; API keys keep their scopes, OAuth tokens stay /mcp's.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Awaited<ReturnType<typeof seedProject>>;

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;
const ownerAuth = basic(OWNER_EMAIL, OWNER_PASSWORD);

async function call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: ownerAuth, "content-type": "application/json", "x-brynth-project": seeded.project.id, ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below
  return { status: res.status, body: (await res.json()) as any };
}

const entryFor = async (op: string, subject: string) =>
  (
    await (
      await getDb()
    )
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, seeded.project.id), eq(ledgerEntries.op, op), eq(ledgerEntries.subject, subject)))
  )[0];

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Owner tools" });
});
afterAll(() => server.close());

describe("tool REST routes with the owner's credentials", () => {
  it("creates two inboxes, sends from one to the other and reads it there, all over REST with HTTP Basic", async () => {
    const tag = newId("x").slice(2, 10).toLowerCase();
    const from = await call("POST", "/inboxes", { body: { username: `sender-${tag}`, display_name: "Sender" } });
    expect(from.status, JSON.stringify(from.body)).toBe(200);
    const to = await call("POST", "/inboxes", { body: { username: `receiver-${tag}` } });
    expect(to.status, JSON.stringify(to.body)).toBe(200);
    expect(from.body.inbox_id).toMatch(/^mbx_/);

    // The ledger shows the owner, via REST, as for the dashboard's own actions.
    const created = await entryFor("create.inbox", from.body.inbox_id);
    expect(created).toMatchObject({ actorType: "owner", actorId: seeded.owner.id, agent: OWNER_EMAIL, via: "rest" });

    const sent = await call("POST", `/inboxes/${from.body.inbox_id}/messages/send`, {
      body: { to: [to.body.email], subject: `Owner says hi ${tag}`, text: "Sent by a script with the owner's password." },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message_id).toBeTruthy();
    await drainJobs();

    const inbox = await call("GET", `/inboxes/${to.body.inbox_id}/messages`);
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
    const subjects = inbox.body.messages.map((m: { subject: string }) => m.subject);
    expect(subjects).toContain(`Owner says hi ${tag}`);
  });

  it("writes and reads a disk key, and the entry names the owner", async () => {
    const put = await call("PUT", "/kv/owner%2Fnote", { body: { value: { written: "by the owner" } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const got = await call("GET", "/kv/owner%2Fnote");
    expect(got.status).toBe(200);
    expect(got.body.value).toEqual({ written: "by the owner" });
    expect(await entryFor("kv.set", "owner/note")).toMatchObject({ actorType: "owner", actorId: seeded.owner.id, via: "rest" });
  });

  it("acts on X-Brynth-Project, else the owner's first project, and refuses an unknown or another owner's project naming the header", async () => {
    const second = await seedProject({ name: "Second owner tools" });
    await call("PUT", "/kv/where", { body: { value: "second" }, headers: { "x-brynth-project": second.project.id } });
    const there = await fetch(`${server.url}/api/v1/kv/where`, { headers: { authorization: `Bearer ${second.secret}` } });
    expect((await there.json()).value).toBe("second");
    const here = await call("GET", "/kv/where");
    expect(here.body.value).toBeNull();

    const who = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: ownerAuth } });
    expect(who.status).toBe(200);
    const [first] = await ownerProjects(await getDb(), seeded.owner.id);
    expect((await who.json()).project.id).toBe(first.id);

    const unknown = await call("GET", "/kv/where", { headers: { "x-brynth-project": "prj_nope" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("X-Brynth-Project");

    const db = await getDb();
    const [stranger] = await db
      .insert(owners)
      .values({
        id: newId("own"),
        email: `stranger-${newId("x").slice(2, 10).toLowerCase()}@example.com`,
        passwordHash: await hashPassword("another long password"),
      })
      .returning();
    const foreign = await db.transaction((tx) => createProject(tx, { ownerId: stranger.id, ownerEmail: stranger.email, name: "Not yours" }));
    const refused = await call("PUT", "/kv/where", { body: { value: "theirs" }, headers: { "x-brynth-project": foreign.id } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toContain("X-Brynth-Project");
  });

  it("refuses a wrong password, and the session cookie from another site's page", async () => {
    const wrong = await call("GET", "/kv/owner%2Fnote", { headers: { authorization: basic(OWNER_EMAIL, "not the password at all") } });
    expect(wrong.status).toBe(401);

    const session = await startOwnerSession(await getDb(), { ownerId: seeded.owner.id, userAgent: "Chromium", ip: "127.0.0.1" });
    const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
    const cookieCall = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/v1/kv/owner%2Fnote`, { headers: { cookie, "x-brynth-project": seeded.project.id, ...headers } });

    const ours = await cookieCall({ origin: server.url, "sec-fetch-site": "same-origin" });
    expect(ours.status).toBe(200);
    expect((await ours.json()).value).toEqual({ written: "by the owner" });
    const evil = await cookieCall({ origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.message).toMatch(/session cookie/);
    // A cross-site navigation or GET carries no Origin; Sec-Fetch-Site tells.
    expect((await cookieCall({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    // Another local page (loopback, another port) is not our origin either.
    expect((await cookieCall({ origin: "http://127.0.0.1:1" })).status).toBe(403);
    // Owner REST routes follow the same rule.
    const ownerRoute = await fetch(`${server.url}/api/v1/keys`, { headers: { cookie, origin: "http://evil.example" } });
    expect(ownerRoute.status).toBe(403);
  });

  it("keeps an API key to its scopes and its own project, ignoring X-Brynth-Project", async () => {
    const reader = await seedKey(seeded.project.id, ["ledger:read"], "reader");
    const denied = await fetch(`${server.url}/api/v1/inboxes`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader.secret}`, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe("missing_permission");

    const second = await seedProject({ name: "Key stays home" });
    const kv = await fetch(`${server.url}/api/v1/kv/owner%2Fnote`, {
      headers: { authorization: `Bearer ${seeded.secret}`, "x-brynth-project": second.project.id },
    });
    expect((await kv.json()).value).toEqual({ written: "by the owner" });
  });

  it("still refuses a valid OAuth access token on REST, while /mcp takes it", async () => {
    const db = await getDb();
    const [client] = await db
      .insert(oauthClients)
      .values({ id: newId("oac"), clientName: "Test app", redirectUris: ["http://127.0.0.1/cb"] })
      .returning();
    const [grant] = await db
      .insert(oauthGrants)
      .values({
        id: newId("ogr"),
        projectId: seeded.project.id,
        ownerId: seeded.owner.id,
        clientId: client.id,
        scopes: [...allScopes],
        resource: mcpResource(),
      })
      .returning();
    const { access_token } = await issueTokens(db, grant);
    const mcp = await connectMcp(server.url, access_token);
    expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.client.close();

    const rest = await fetch(`${server.url}/api/v1/kv/owner%2Fnote`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(rest.status).toBe(401);
    expect((await rest.json()).error.message).toMatch(/\/mcp only/);
  });

  it("counts the owner's calls in a bucket of the owner's own, apart from the project's keys", async () => {
    const original = process.env.KEY_CALLS_PER_MINUTE;
    process.env.KEY_CALLS_PER_MINUTE = "2";
    resetEnvCache();
    try {
      const whoami = (authorization: string) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization } });
      for (let i = 0; i < 2; i++) expect((await whoami(ownerAuth)).status).toBe(200);
      const over = await whoami(ownerAuth);
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await whoami(`Bearer ${seeded.secret}`)).status).toBe(200);
    } finally {
      if (original === undefined) delete process.env.KEY_CALLS_PER_MINUTE;
      else process.env.KEY_CALLS_PER_MINUTE = original;
      resetEnvCache();
    }
  });

  it("counts the owner's tool calls over /mcp in the same bucket: /mcp did not count them at all", async () => {
    const original = process.env.KEY_CALLS_PER_MINUTE;
    process.env.KEY_CALLS_PER_MINUTE = "2";
    resetEnvCache();
    try {
      const whoami = async () => {
        const res = await rawMcp(
          server.url,
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
          { authorization: ownerAuth, "x-brynth-project": seeded.project.id },
        );
        return (await res.json()).result as { isError?: boolean; content: { text: string }[] };
      };
      // The owner's bucket holds at most 2 (what the REST test above left of it, refilled since): the third is refused.
      const answers = [await whoami(), await whoami(), await whoami()];
      const over = answers.find((a) => a.isError);
      expect(over).toBeDefined();
      expect(JSON.parse(over!.content[0].text).code).toBe("rate_limited");
    } finally {
      if (original === undefined) delete process.env.KEY_CALLS_PER_MINUTE;
      else process.env.KEY_CALLS_PER_MINUTE = original;
      resetEnvCache();
    }
  });

  it("lists owner Basic and the owner's cookie beside API keys on every tool route of the OpenAPI document", async () => {
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const op = doc.paths["/api/v1/inboxes"].post;
    expect(op.security).toEqual([{ bearer: [] }, { ownerBasic: [] }, { ownerCookie: [] }]);
    expect(doc.components.securitySchemes.ownerBasic.description).toContain("X-Brynth-Project");
  });
});
