import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { encode } from "next-auth/jwt";
import { nextAuthSecret } from "@/lib/auth/auth-secret";
import { startOwnerSession } from "@/lib/owners/owner-sessions";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { lastLedgerEntry } from "@/lib/testing/ledger";

/** Projects and the owner's sessions over owner REST (HTTP Basic). */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Projects REST");
});
afterAll(() => c.server.close());

describe("owner REST: projects", () => {
  it("creates a project whose chain opens with project.create, lists it, and acts on it by X-Brynth-Project", async () => {
    const made = await c.call("POST", "/projects", { name: "  Billing bot  " });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Billing bot" });
    expect(made.body.id).toMatch(/^prj_/);
    expect((await lastLedgerEntry(made.body.id, "project.create"))?.actorType).toBe("owner");

    const listed = (await c.call("GET", "/projects")).body.projects.map((p: { id: string }) => p.id);
    expect(listed).toContain(made.body.id);
    const key = await c.call("POST", "/keys", { name: "billing", scopes: ["ledger:read"] }, { "x-brynth-project": made.body.id });
    expect(key.status).toBe(201);
    const who = await (await fetch(`${c.server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key.body.secret}` } })).json();
    expect(who.project.id).toBe(made.body.id);
  });

  it("names the field of a bad project name and creates nothing", async () => {
    const before = (await c.call("GET", "/projects")).body.projects.length;
    for (const body of [{}, { name: "   " }, { name: "x".repeat(101) }, { name: 7 }]) {
      const res = await c.call("POST", "/projects", body);
      expect(res.status).toBe(400);
      expect(namesFields(res.body, ["name"])).toBe(true);
    }
    expect((await c.call("GET", "/projects")).body.projects.length).toBe(before);
  });
});

describe("owner REST: renaming a project", () => {
  it("renames the project in the path, ledgered in its own chain, and its keys' whoami says the new name at once", async () => {
    const made = (await c.call("POST", "/projects", { name: "Old name" })).body;
    const key = (await c.call("POST", "/keys", { name: "k", scopes: ["ledger:read"] }, { "x-brynth-project": made.id })).body;
    const whoami = async () => (await (await fetch(`${c.server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${key.secret}` } })).json()).project;
    expect((await whoami()).name).toBe("Old name");

    // The header names another project: the path's wins.
    const renamed = await c.call("PATCH", `/projects/${made.id}`, { name: "  New name " });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: made.id, name: "New name" });
    expect((await lastLedgerEntry(made.id, "project.rename"))?.subject).toBe(made.id);
    expect(await c.entry("project.rename")).toBeUndefined();
    expect(await whoami()).toEqual({ id: made.id, name: "New name" });
  });

  it("names the field of a bad name, and answers 404 for a project that is not the owner's", async () => {
    for (const body of [{}, { name: "" }, { name: "x".repeat(101) }]) {
      const res = await c.call("PATCH", `/projects/${c.seeded.project.id}`, body);
      expect(res.status).toBe(400);
      expect(namesFields(res.body, ["name"])).toBe(true);
    }
    expect((await c.call("PATCH", "/projects/prj_unknown", { name: "x" })).status).toBe(404);
    expect((await c.call("GET", "/projects")).body.projects.find((p: { id: string }) => p.id === c.seeded.project.id).name).toBe("Projects REST");
  });
});

describe("owner REST: sessions", () => {
  it("lists the owner's live sessions and ends one (ledgered as signing out is), 404 for an unknown or ended one", async () => {
    const session = await startOwnerSession(await getDb(), { ownerId: c.seeded.owner.id, userAgent: "curl/8", ip: "127.0.0.1" });
    const listed = (await c.call("GET", "/owner/sessions")).body.sessions;
    expect(listed.find((s: { id: string }) => s.id === session.id)).toMatchObject({ user_agent: "curl/8", ip: "127.0.0.1" });

    const ended = await c.call("DELETE", `/owner/sessions/${session.id}`);
    expect(ended.body).toEqual({ id: session.id, ended: true });
    expect((await c.entry("owner.session.revoke"))?.subject).toBe(session.id);
    expect((await c.call("GET", "/owner/sessions")).body.sessions.map((s: { id: string }) => s.id)).not.toContain(session.id);
    expect((await c.call("DELETE", `/owner/sessions/${session.id}`)).status).toBe(404);
    expect((await c.call("DELETE", "/owner/sessions/ses_unknown")).status).toBe(404);
  });

  it("takes the dashboard's session cookie as well, until that session is ended", async () => {
    const session = await startOwnerSession(await getDb(), { ownerId: c.seeded.owner.id, userAgent: "Chromium", ip: "127.0.0.1" });
    const cookie = `next-auth.session-token=${await encode({ token: { sid: session.id }, secret: nextAuthSecret() })}`;
    const withCookie = () =>
      fetch(`${c.server.url}/api/v1/owner/channels`, { headers: { cookie, "x-brynth-project": c.seeded.project.id } }).then((r) => r.status);
    expect(await withCookie()).toBe(200);
    const added = await fetch(`${c.server.url}/api/v1/owner/sources`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "x-brynth-project": c.seeded.project.id, origin: c.server.url },
      body: JSON.stringify({ type: "webhook", name: "from-cookie" }),
    });
    expect(added.status).toBe(201);
    expect((await c.entry("source.add"))?.actorType).toBe("owner");
    expect((await c.call("DELETE", `/owner/sessions/${session.id}`)).status).toBe(200);
    expect(await withCookie()).toBe(401);
  });

  it("answers a session cookie that is not valid percent-encoding with 401, not a server error", async () => {
    for (const cookie of ["next-auth.session-token=%zz", "other=%E0%A4%A; next-auth.session-token=%"]) {
      const res = await fetch(`${c.server.url}/api/v1/owner/channels`, { headers: { cookie, "x-brynth-project": c.seeded.project.id } });
      expect(res.status, cookie).toBe(401);
    }
  });
});
