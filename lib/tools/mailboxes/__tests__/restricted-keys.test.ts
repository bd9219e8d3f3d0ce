import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { AppError } from "@/lib/errors";
import { createKey } from "@/lib/keys/create-key";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { OWNER_EMAIL, OWNER_PASSWORD, seedOwner } from "@/lib/testing/seed";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteInbox } from "@/lib/tools/mailboxes/delete-inbox";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { getInbox } from "@/lib/tools/mailboxes/get-inbox";
import { getListEntry } from "@/lib/tools/mailboxes/get-list-entry";
import { listInboxes } from "@/lib/tools/mailboxes/list-inboxes";
import { listListEntriesTool } from "@/lib/tools/mailboxes/list-list-entries";
import { searchInboxes } from "@/lib/tools/mailboxes/search-inboxes";
import { updateInbox } from "@/lib/tools/mailboxes/update-inbox";
import type { AnyTool } from "@/lib/tools/run-tool";
import { allScopes } from "@/lib/keys/scopes";
import { connect } from "@/lib/oauth/__tests__/oauth-steps";
import { call, projectWithKey, refusal, restrictedKey } from "./inbox-test-helpers";

let p: Awaited<ReturnType<typeof projectWithKey>>;
let other: Awaited<ReturnType<typeof projectWithKey>>;
let own: { inbox_id: string; email: string };
let elsewhere: { inbox_id: string; email: string };
let r: Awaited<ReturnType<typeof restrictedKey>>;
const unique = () => `r${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  p = await projectWithKey("Restricted keys");
  other = await projectWithKey("Elsewhere");
  own = (await call(createInbox, p.mcp, { username: unique() })) as typeof own;
  elsewhere = (await call(createInbox, p.mcp, { username: unique(), displayName: `${own.email.slice(0, 4)} twin` })) as typeof elsewhere;
  r = await restrictedKey(p.project.id, p.project.name, own.inbox_id);
});

async function keyCount(projectId: string) {
  const [row] = await (await getDb()).select({ n: count() }).from(apiKeys).where(eq(apiKeys.projectId, projectId));
  return row.n;
}

describe("createKey with mailbox_id", () => {
  it("refuses a mailbox that is missing, deleted or another project's: validation_error naming mailbox_id, no key made", async () => {
    const gone = await call(createInbox, p.mcp, { username: unique() });
    await call(deleteInbox, p.mcp, { inboxId: gone.inbox_id });
    const theirs = await call(createInbox, other.mcp, { username: unique() });
    const db = await getDb();
    const owner = await seedOwner();
    const before = await keyCount(p.project.id);
    for (const mailbox_id of ["mbx_nope", gone.inbox_id, theirs.inbox_id, gone.email, theirs.email, "nobody@example.com"]) {
      const err = await db
        .transaction(async (tx) =>
          createKey(tx, { actor: await ownerActor(tx, owner, p.project.id, "dashboard"), name: "k", scopes: ["inbox_read"], mailbox_id }),
        )
        .then(
          () => null,
          (e) => e,
        );
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe("validation_error");
      expect(err.details).toEqual([{ field: "mailbox_id", message: expect.any(String) }]);
    }
    expect(await keyCount(p.project.id)).toBe(before);
  });

  // The dashboard's picker lists the first 500 mailboxes; past them the owner types the address, as inboxId takes one.
  it("takes the mailbox by its address in any case, and stores its id", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const db = await getDb();
    const owner = await seedOwner();
    const { key } = await db.transaction(async (tx) =>
      createKey(tx, {
        actor: await ownerActor(tx, owner, p.project.id, "dashboard"),
        name: "by address",
        scopes: ["inbox_read"],
        mailbox_id: box.email.toUpperCase(),
      }),
    );
    expect(key.mailboxId).toBe(box.inbox_id);
  });
});

describe("a key restricted to one mailbox", () => {
  it("gets NOT_FOUND, with the text of a missing inbox, for another inbox on get, update and the list tools", async () => {
    const missing = (await refusal(getInbox, r.mcp, { inboxId: "mbx_missing" })).message.replace("mbx_missing", "<ref>");
    const list = { direction: "receive", type: "block" };
    const cases: Array<[AnyTool, Record<string, unknown>]> = [
      [getInbox, {}],
      [updateInbox, { displayName: "taken over" }],
      [listListEntriesTool, list],
      [getListEntry, { ...list, entry: "x.example" }],
      [createListEntryTool, { ...list, entry: "x.example" }],
      [deleteListEntryTool, { ...list, entry: "x.example" }],
    ];
    for (const [tool, args] of cases) {
      for (const ref of [elsewhere.inbox_id, elsewhere.email]) {
        const err = await refusal(tool, r.mcp, { ...args, inboxId: ref });
        expect([tool.name, err.code]).toEqual([tool.name, "NOT_FOUND"]);
        expect(err.message.replace(ref, "<ref>")).toBe(missing);
      }
      const { displayName, ...same } = args;
      const restArgs = displayName === undefined ? same : { ...same, display_name: displayName };
      const viaRest = await refusal(tool, r.rest, { ...restArgs, inbox_id: elsewhere.inbox_id });
      expect(viaRest.code).toBe("NOT_FOUND");
    }
    // delete_inbox is refused outright, whichever inbox it names: existence does not leak there either.
    for (const inboxId of [own.inbox_id, elsewhere.inbox_id, "mbx_missing"])
      expect((await refusal(deleteInbox, r.mcp, { inboxId })).code).toBe("missing_permission");
    expect((await call(getInbox, p.mcp, { inboxId: elsewhere.inbox_id })).display_name).not.toBe("taken over");
  });

  it("sees and changes only its own inbox: list_inboxes and search_inboxes show it alone", async () => {
    expect((await call(listInboxes, r.mcp, { limit: 100 })).inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual([own.inbox_id]);
    expect((await call(searchInboxes, r.rest, { q: own.email.slice(0, 4) })).inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual([own.inbox_id]);
    expect((await call(searchInboxes, p.mcp, { q: own.email.slice(0, 4) })).count).toBe(2);
    expect((await call(updateInbox, r.mcp, { inboxId: own.email, displayName: "Mine" })).display_name).toBe("Mine");
    expect((await call(getInbox, r.rest, { inbox_id: own.inbox_id })).display_name).toBe("Mine");
  });

  it("reaches nothing once its mailbox is deleted", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const k = await restrictedKey(p.project.id, p.project.name, box.inbox_id);
    await call(deleteInbox, p.mcp, { inboxId: box.inbox_id });
    expect((await refusal(getInbox, k.mcp, { inboxId: box.inbox_id })).code).toBe("NOT_FOUND");
    expect((await call(listInboxes, k.mcp, {})).inboxes).toEqual([]);
  });
});

describe("over HTTP", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => server.close());

  it("owner REST creates a restricted key (a bad mailbox_id is 400 naming it), lists the restriction, and the key works over MCP within it", async () => {
    const headers = { authorization: basic, "content-type": "application/json", "x-brynth-project": p.project.id };
    const bad = await fetch(`${server.url}/api/v1/keys`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "bad", scopes: ["inbox_read"], mailbox_id: "mbx_nope" }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details).toEqual([{ field: "mailbox_id", message: expect.any(String) }]);
    const made = await fetch(`${server.url}/api/v1/keys`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "one mailbox", scopes: ["inbox_read", "inbox_update"], mailbox_id: own.inbox_id }),
    });
    expect(made.status).toBe(201);
    const key = await made.json();
    expect(key.mailbox_id).toBe(own.inbox_id);
    const listed = (await (await fetch(`${server.url}/api/v1/keys`, { headers })).json()).keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ mailbox_id: own.inbox_id, mailbox_email: own.email, mailbox_deleted: false });
    const unrestricted = (await (await fetch(`${server.url}/api/v1/keys`, { headers })).json()).keys.find((k: { id: string }) => k.id === p.key.id);
    expect(unrestricted).toMatchObject({ mailbox_id: null, mailbox_email: null, mailbox_deleted: false });

    const { client } = await connectMcp(server.url, key.secret);
    try {
      const listedInboxes = await client.callTool({ name: "list_inboxes", arguments: {} });
      expect((listedInboxes.structuredContent as { inboxes: Array<{ inbox_id: string }> }).inboxes.map((i) => i.inbox_id)).toEqual([own.inbox_id]);
      const foreign = await client.callTool({ name: "get_inbox", arguments: { inboxId: elsewhere.inbox_id } });
      expect(foreign.isError).toBe(true);
      expect(JSON.parse((foreign.content as Array<{ text: string }>)[0].text).code).toBe("NOT_FOUND");
    } finally {
      await client.close();
    }
  });

  it("a key or OAuth grant whose mailbox is deleted may call whoami and nothing else, though it was authenticated before", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const db = await getDb();
    const owner = await seedOwner();
    const { secret } = await db.transaction(async (tx) =>
      createKey(tx, { actor: await ownerActor(tx, owner, p.project.id, "dashboard"), name: "gone", scopes: [...allScopes], mailbox_id: box.inbox_id }),
    );
    const { tokens } = await connect(server.url, { projectId: p.project.id, scopes: ["inbox_read", "webhook_create", "draft_read"], mailboxId: box.inbox_id });
    const rest = (path: string) => fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${secret}` } });
    const app = (await connectMcp(server.url, tokens.access_token)).client;
    const webhook = { request: { url: "https://hooks.example.com/gone", event_types: ["message.received"] } };
    try {
      // Both credentials are in the auth caches, as a busy agent's are, when the owner deletes the mailbox.
      expect((await rest("/drafts")).status).toBe(200);
      expect((await app.callTool({ name: "list_inboxes", arguments: {} })).isError).toBeFalsy();
      await call(deleteInbox, p.mcp, { inboxId: box.inbox_id });

      // Before: list_drafts and the webhook tools took the key's mailbox id as it stood, and kept answering.
      const drafts = await rest("/drafts");
      expect(drafts.status).toBe(403);
      expect((await drafts.json()).error).toMatchObject({ code: "missing_permission", message: expect.stringContaining("deleted") });
      expect((await rest("/whoami")).status).toBe(200);
      const created = await app.callTool({ name: "create_webhook", arguments: webhook });
      expect(created.isError).toBe(true);
      expect(JSON.parse((created.content as Array<{ text: string }>)[0].text).code).toBe("missing_permission");
      expect((await app.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
    } finally {
      await app.close();
    }
  });

  it("the keys list marks a key whose mailbox was deleted", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const k = await restrictedKey(p.project.id, p.project.name, box.inbox_id);
    await call(deleteInbox, p.mcp, { inboxId: box.inbox_id });
    const headers = { authorization: basic, "x-brynth-project": p.project.id };
    const listed = (await (await fetch(`${server.url}/api/v1/keys`, { headers })).json()).keys.find((x: { id: string }) => x.id === k.key.id);
    expect(listed).toMatchObject({ mailbox_id: box.inbox_id, mailbox_email: box.email, mailbox_deleted: true });
  });
});
