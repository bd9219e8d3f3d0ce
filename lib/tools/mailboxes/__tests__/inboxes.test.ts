import { domainToASCII } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailDomains } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { addEmailSource } from "@/lib/mail/__tests__/helpers";
import { defaultMailDomain } from "@/lib/mail/domains/mail-domain-name";
import { resolveRecipient } from "@/lib/mail/inbound/resolve-recipient";
import { defaultMailbox } from "@/lib/mail/project-address";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { connectMcp } from "@/lib/testing/mcp-client";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { deleteInbox } from "@/lib/tools/mailboxes/delete-inbox";
import { getInbox } from "@/lib/tools/mailboxes/get-inbox";
import { listInboxes } from "@/lib/tools/mailboxes/list-inboxes";
import { searchInboxes } from "@/lib/tools/mailboxes/search-inboxes";
import { updateInbox } from "@/lib/tools/mailboxes/update-inbox";
import { call, projectWithKey, refusal, refusedFields, restrictedKey, snapshot } from "./inbox-test-helpers";

let p: Awaited<ReturnType<typeof projectWithKey>>;
let other: Awaited<ReturnType<typeof projectWithKey>>;
const unique = () => `u${Math.random().toString(36).slice(2, 10)}`;

async function addDomain(projectId: string, domain: string, verified: boolean) {
  const db = await getDb();
  await db.insert(mailDomains).values({
    id: newId("dom"),
    projectId,
    domain,
    dkimSelector: "brynth1",
    dkimPrivateKeyEnc: "unused",
    dkimPublicKey: "unused",
    verifiedAt: verified ? new Date() : null,
  });
}

beforeAll(async () => {
  p = await projectWithKey("Inbox tools");
  other = await projectWithKey("Other project");
  await addDomain(p.project.id, `verified-${p.project.id.slice(4, 12).toLowerCase()}.example`, true);
  await addDomain(p.project.id, `pending-${p.project.id.slice(4, 12).toLowerCase()}.example`, false);
  await addDomain(other.project.id, `theirs-${other.project.id.slice(4, 12).toLowerCase()}.example`, true);
});

const verified = () => `verified-${p.project.id.slice(4, 12).toLowerCase()}.example`;

describe("create_inbox", () => {
  it("creates a random address on the mail domain, records the creating key, ledgers the mailbox id, answers in snake_case", async () => {
    const out = await call(createInbox, p.mcp, {});
    expect(out).toMatchObject({
      email: expect.stringMatching(new RegExp(`^[a-z0-9]{12}@${defaultMailDomain().replace(/\./g, "\\.")}$`)),
      status: "active",
      display_name: null,
    });
    expect(out.inbox_id).toMatch(/^mbx_/);
    const [row] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, out.inbox_id));
    expect(row.createdByKey).toBe(p.key.id);
    expect((await lastLedgerEntry(p.project.id, "create.inbox")).subject).toBe(out.inbox_id);
  });

  it("takes username, display name, status and metadata, over MCP in camelCase and over REST in snake_case", async () => {
    const name = unique();
    const viaMcp = await call(createInbox, p.mcp, {
      username: name,
      displayName: "Sales Desk",
      status: "disabled",
      metadata: { team: "sales", tier: 2, vip: true },
    });
    expect(viaMcp).toMatchObject({
      email: `${name}@${defaultMailDomain()}`,
      display_name: "Sales Desk",
      status: "disabled",
      metadata: { team: "sales", tier: 2, vip: true },
    });
    const restName = unique();
    const viaRest = await call(createInbox, p.rest, {
      username: restName,
      display_name: "Billing",
      client_id: `c-${restName}`,
      metadata: { someKey: "kept as written" },
    });
    expect(viaRest).toMatchObject({ display_name: "Billing", client_id: `c-${restName}`, metadata: { someKey: "kept as written" } });
  });

  it("refuses bad usernames with validation_error naming username, and writes nothing", async () => {
    const before = await snapshot(p.project.id);
    for (const username of ["Admin", "a@b", "-x", "x-", ".x", "x.", "a..b", "a b", "ü", "x".repeat(65), "", "postmaster", "mailer-daemon", "noreply"]) {
      expect(await refusedFields(createInbox, p.mcp, { username })).toEqual(["username"]);
      expect(await refusedFields(createInbox, p.rest, { username })).toEqual(["username"]);
    }
    expect((await refusal(createInbox, p.mcp, { username: "Admin" })).message).toContain("lower case");
    expect(await snapshot(p.project.id)).toEqual(before);
    expect((await call(createInbox, p.mcp, { username: `a.b_c-${unique()}` })).email).toMatch(/^a\.b_c-/);
  });

  it("domain: another project's or a foreign one → validation_error naming domain; unverified → CONFLICT; verified → created", async () => {
    const before = await snapshot(p.project.id);
    for (const domain of ["gmail.com", `theirs-${other.project.id.slice(4, 12).toLowerCase()}.example`]) {
      expect(await refusedFields(createInbox, p.mcp, { domain })).toEqual(["domain"]);
      expect(await refusedFields(createInbox, p.rest, { domain })).toEqual(["domain"]);
    }
    const pending = await refusal(createInbox, p.mcp, { domain: `pending-${p.project.id.slice(4, 12).toLowerCase()}.example` });
    expect(pending.code).toBe("CONFLICT");
    expect(pending.fix?.toLowerCase()).toContain("verify the domain's dns on the domains screen");
    expect(await snapshot(p.project.id)).toEqual(before);
    const made = await call(createInbox, p.mcp, { username: "hello", domain: verified().toUpperCase() });
    expect(made.email).toBe(`hello@${verified()}`);
  });

  it("a taken address → CONFLICT 'choose another username', in any project; free again once deleted", async () => {
    const name = unique();
    const first = await call(createInbox, p.mcp, { username: name });
    const before = await snapshot(p.project.id);
    for (const actor of [p.mcp, other.mcp]) {
      const err = await refusal(createInbox, actor, { username: name });
      expect(err.code).toBe("CONFLICT");
      expect(err.fix?.toLowerCase()).toContain("choose another username");
    }
    expect(await snapshot(p.project.id)).toEqual(before);
    await call(deleteInbox, p.mcp, { inboxId: first.inbox_id });
    expect((await call(createInbox, other.mcp, { username: name })).email).toBe(first.email);
  });

  it("the same clientId returns the first inbox and writes nothing, whatever the other arguments", async () => {
    const clientId = `client-${unique()}`;
    const first = await call(createInbox, p.mcp, { username: unique(), clientId });
    const before = await snapshot(p.project.id);
    const again = await call(createInbox, p.mcp, { username: unique(), clientId, displayName: "Other" });
    expect(again).toEqual(first);
    expect(await call(createInbox, p.rest, { client_id: clientId })).toEqual(first);
    expect(await snapshot(p.project.id)).toEqual(before);
    // Another project's clientId space is its own.
    expect((await call(createInbox, other.mcp, { clientId })).inbox_id).not.toBe(first.inbox_id);
    // Deleted since: a replay does not bring it back.
    await call(deleteInbox, p.mcp, { inboxId: first.inbox_id });
    expect((await refusal(createInbox, p.mcp, { clientId })).code).toBe("CONFLICT");
  });

  it("under concurrency: one of many creates of one address wins and the rest are CONFLICT; one clientId makes one inbox", async () => {
    const name = unique();
    // The first create of a process makes the mail domain's DKIM key: not what this test is about.
    await call(createInbox, p.mcp, {});
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => call(createInbox, p.mcp, { username: name })));
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    for (const s of settled) if (s.status === "rejected") expect(s.reason.code).toBe("CONFLICT");
    const clientId = `race-${unique()}`;
    const same = await Promise.all(Array.from({ length: 8 }, () => call(createInbox, p.mcp, { clientId })));
    expect(new Set(same.map((o) => o.inbox_id)).size).toBe(1);
    const deleted = await Promise.all(Array.from({ length: 4 }, () => call(deleteInbox, p.mcp, { inboxId: same[0].inbox_id })));
    expect(new Set(deleted.map((o) => JSON.stringify(o))).size).toBe(1);
  });

  it("metadata nested, too many keys, too long a key or value, too big in all → validation_error naming metadata.<key>", async () => {
    const before = await snapshot(p.project.id);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const big = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "x".repeat(1000)]));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ nested: { a: 1 } }, "metadata.nested"],
      [{ list: [1, 2] }, "metadata.list"],
      [{ nothing: null }, "metadata.nothing"],
      [many, "metadata.k50"],
      [{ long: "x".repeat(1025) }, "metadata.long"],
      [{ ["k".repeat(65)]: 1 }, `metadata.${"k".repeat(65)}`],
      [big, "metadata.k8"],
    ];
    for (const [metadata, field] of cases) {
      expect(await refusedFields(createInbox, p.mcp, { metadata })).toEqual([field]);
      // REST renames declared fields only: the user's keys come back as written.
      expect(await refusedFields(createInbox, p.rest, { metadata })).toEqual([field]);
    }
    expect(await refusedFields(createInbox, p.rest, { metadata: { camelKey: { deep: true } } })).toEqual(["metadata.camelKey"]);
    expect(await snapshot(p.project.id)).toEqual(before);
    expect((await call(createInbox, p.mcp, { metadata: { ok: "x".repeat(1024), n: 1.5, b: false } })).metadata.n).toBe(1.5);
  });

  it("display name: one line, at most 128 characters, named in the caller's casing", async () => {
    expect(await refusedFields(createInbox, p.mcp, { displayName: "a\r\nBcc: x@y" })).toEqual(["displayName"]);
    expect(await refusedFields(createInbox, p.rest, { display_name: "a\r\nBcc: x@y" })).toEqual(["display_name"]);
    expect(await refusedFields(createInbox, p.rest, { display_name: "x".repeat(129) })).toEqual(["display_name"]);
    expect(await refusedFields(createInbox, p.rest, { displayName: "camel over REST" })).toEqual(["displayName"]);
  });

  it("a key restricted to one mailbox may not create or delete inboxes (missing_permission), and nothing is written", async () => {
    const own = await call(createInbox, p.mcp, { username: unique() });
    const r = await restrictedKey(p.project.id, p.project.name, own.inbox_id);
    const before = await snapshot(p.project.id);
    expect((await refusal(createInbox, r.mcp, { username: unique() })).code).toBe("missing_permission");
    expect((await refusal(deleteInbox, r.mcp, { inboxId: own.inbox_id })).code).toBe("missing_permission");
    expect((await refusal(deleteInbox, r.rest, { inbox_id: own.inbox_id })).code).toBe("missing_permission");
    expect(await snapshot(p.project.id)).toEqual(before);
  });
});

describe("a verified IDN domain, named in Unicode or in xn-- form", () => {
  it("makes and finds its mailboxes either way, as the one address in xn-- form", async () => {
    const unicode = `bücher-${p.project.id.slice(4, 12).toLowerCase()}.example`;
    const ascii = domainToASCII(unicode);
    await addDomain(p.project.id, ascii, true);
    // Before: "bücher-….example is not a domain of this project", and the Unicode address was NOT_FOUND.
    const made = await call(createInbox, p.mcp, { username: "sales", domain: unicode });
    expect(made.email).toBe(`sales@${ascii}`);
    for (const ref of [`sales@${unicode}`, `SALES@${unicode.toUpperCase()}`, `sales@${ascii}`]) {
      expect((await call(getInbox, p.mcp, { inboxId: ref })).inbox_id, ref).toBe(made.inbox_id);
    }
    expect(await resolveRecipient(await getDb(), `sales@${unicode}`)).toMatchObject({ kind: "mailbox", mailbox: { id: made.inbox_id } });
  });
});

describe("update_inbox", () => {
  it("merges metadata (null removes a key, metadata: null clears), sets display name and status, keeps omitted fields", async () => {
    const box = await call(createInbox, p.mcp, { username: unique(), displayName: "Support", metadata: { a: 1, b: "two" } });
    const merged = await call(updateInbox, p.mcp, { inboxId: box.inbox_id, metadata: { b: null, c: true } });
    expect(merged).toMatchObject({ display_name: "Support", status: "active", metadata: { a: 1, c: true } });
    expect(merged.metadata).not.toHaveProperty("b");
    const renamed = await call(updateInbox, p.rest, { inbox_id: box.email.toUpperCase(), display_name: null, status: "disabled" });
    expect(renamed).toMatchObject({ display_name: null, status: "disabled", metadata: { a: 1, c: true } });
    expect((await call(updateInbox, p.mcp, { inboxId: box.inbox_id, metadata: null })).metadata).toEqual({});
    expect((await lastLedgerEntry(p.project.id, "update.inbox")).subject).toBe(box.inbox_id);
  });

  it("refuses a merge past the limits naming metadata.<key>, and changes nothing", async () => {
    const full = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const box = await call(createInbox, p.mcp, { username: unique(), metadata: full });
    const before = await snapshot(p.project.id);
    expect(await refusedFields(updateInbox, p.mcp, { inboxId: box.inbox_id, metadata: { extra: 1 }, displayName: "changed" })).toEqual(["metadata.extra"]);
    expect(await refusedFields(updateInbox, p.rest, { inbox_id: box.inbox_id, metadata: { extraKey: 1 } })).toEqual(["metadata.extraKey"]);
    expect(await refusedFields(updateInbox, p.rest, { inbox_id: box.inbox_id, metadata: { x: { nested: 1 } } })).toEqual(["metadata.x"]);
    expect(await refusedFields(updateInbox, p.rest, { inbox_id: box.inbox_id, status: "paused" })).toEqual(["status"]);
    expect(await snapshot(p.project.id)).toEqual(before);
    // Removing one key makes room for another in the same call.
    expect(Object.keys((await call(updateInbox, p.mcp, { inboxId: box.inbox_id, metadata: { k0: null, extra: 1 } })).metadata)).toHaveLength(50);
  });

  it("an unknown, deleted or other project's inbox is NOT_FOUND with the same text", async () => {
    const gone = await call(createInbox, p.mcp, { username: unique() });
    await call(deleteInbox, p.mcp, { inboxId: gone.inbox_id });
    const theirs = await call(createInbox, other.mcp, { username: unique() });
    const texts = new Set<string>();
    for (const inboxId of ["mbx_nope", gone.inbox_id, theirs.inbox_id]) {
      const err = await refusal(updateInbox, p.mcp, { inboxId, displayName: "x" });
      expect(err.code).toBe("NOT_FOUND");
      texts.add(err.message.replace(inboxId, "<id>"));
    }
    expect(texts.size).toBe(1);
  });

  it("a disabled mailbox is refused at RCPT; enabled again, it receives", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const db = await getDb();
    expect((await resolveRecipient(db, box.email)).kind).toBe("mailbox");
    await call(updateInbox, p.mcp, { inboxId: box.inbox_id, status: "disabled" });
    expect((await resolveRecipient(db, box.email)).kind).toBe("unknown");
    await call(updateInbox, p.mcp, { inboxId: box.inbox_id, status: "active" });
    expect((await resolveRecipient(db, box.email)).kind).toBe("mailbox");
  });
});

describe("delete_inbox", () => {
  it("soft-deletes, is idempotent (same shape, deleted: true), accepts the address, and the inbox leaves get and list", async () => {
    const box = await call(createInbox, p.mcp, { username: unique() });
    const first = await call(deleteInbox, p.mcp, { inboxId: box.inbox_id });
    expect(first).toMatchObject({ inbox_id: box.inbox_id, email: box.email, deleted: true });
    const again = await call(deleteInbox, p.rest, { inbox_id: box.email });
    expect(again).toEqual(first);
    expect((await refusal(getInbox, p.mcp, { inboxId: box.inbox_id })).code).toBe("NOT_FOUND");
    const listed = await call(listInboxes, p.mcp, { limit: 100 });
    expect(listed.inboxes.map((i: { inbox_id: string }) => i.inbox_id)).not.toContain(box.inbox_id);
    const [row] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, box.inbox_id));
    expect(row.deletedAt).not.toBeNull();
    expect((await lastLedgerEntry(p.project.id, "delete.inbox")).subject).toBe(box.inbox_id);
    expect((await refusal(deleteInbox, p.mcp, { inboxId: "mbx_never" })).code).toBe("NOT_FOUND");
  });

  it("the project address cannot go while the email source uses it: CONFLICT 'remove the email source first'", async () => {
    const q = await projectWithKey("With a source");
    const address = await defaultMailbox(await getDb(), q.project.id);
    await addEmailSource(q.actor);
    const before = await snapshot(q.project.id);
    const err = await refusal(deleteInbox, q.mcp, { inboxId: address.id });
    expect(err.code).toBe("CONFLICT");
    expect(err.fix?.toLowerCase()).toContain("remove the email source first");
    expect(await snapshot(q.project.id)).toEqual(before);
  });
});

describe("search_inboxes", () => {
  it("matches a prefix of the address, its domain or a word of the display name; newest first", async () => {
    const tag = unique();
    const a = await call(createInbox, p.mcp, { username: `${tag}-alpha`, displayName: "Front Desk" });
    const b = await call(createInbox, p.mcp, { username: `zz${tag}`, displayName: `Night ${tag} Desk` });
    const found = await call(searchInboxes, p.mcp, { q: tag.toUpperCase() });
    expect(found.inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual([b.inbox_id, a.inbox_id]);
    expect((await call(searchInboxes, p.rest, { q: tag, ascending: true, limit: 1 })).inboxes[0].inbox_id).toBe(a.inbox_id);
    expect((await call(searchInboxes, p.mcp, { q: verified() })).count).toBeGreaterThan(0);
    expect((await call(searchInboxes, p.mcp, { q: `${tag}%` })).count).toBe(0);
    // Not a substring in the middle of a word.
    expect((await call(searchInboxes, p.mcp, { q: tag.slice(2) })).count).toBe(0);
  });

  it("pages with next_page_token bound to q", async () => {
    const tag = unique();
    for (let i = 0; i < 3; i++) await call(createInbox, p.mcp, { username: `${tag}${i}` });
    const first = await call(searchInboxes, p.mcp, { q: tag, limit: 2 });
    expect(first.count).toBe(2);
    const second = await call(searchInboxes, p.mcp, { q: tag, limit: 2, pageToken: first.next_page_token });
    expect(second).toMatchObject({ count: 1, next_page_token: null });
    expect(await refusedFields(searchInboxes, p.mcp, { q: `${tag}x`, pageToken: first.next_page_token })).toEqual(["pageToken"]);
    expect(await refusedFields(searchInboxes, p.rest, { q: `${tag}x`, page_token: first.next_page_token })).toEqual(["page_token"]);
  });

  it("a page token from another project is refused (validation_error naming it), not read as a place in this one", async () => {
    const tag = unique();
    for (let i = 0; i < 3; i++) await call(createInbox, other.mcp, { username: `${tag}${i}` });
    const theirs = await call(searchInboxes, other.mcp, { q: tag, limit: 1 });
    expect(theirs.next_page_token).toEqual(expect.any(String));
    expect(await refusedFields(searchInboxes, p.mcp, { q: tag, limit: 1, pageToken: theirs.next_page_token })).toEqual(["pageToken"]);
    expect(await refusedFields(searchInboxes, p.rest, { q: tag, limit: 1, page_token: theirs.next_page_token })).toEqual(["page_token"]);
    const firstOfTheirs = await call(listInboxes, other.mcp, { limit: 1 });
    expect(await refusedFields(listInboxes, p.mcp, { limit: 1, pageToken: firstOfTheirs.next_page_token })).toEqual(["pageToken"]);
    expect((await call(searchInboxes, other.mcp, { q: tag, limit: 1, pageToken: theirs.next_page_token })).count).toBe(1);
  });

  it("q of 0, 1 or 257 characters → validation_error naming q", async () => {
    for (const q of ["", "a", " a ", "x".repeat(257)]) expect(await refusedFields(searchInboxes, p.mcp, { q })).toEqual(["q"]);
    expect(await refusedFields(searchInboxes, p.rest, {})).toEqual(["q"]);
  });
});

describe("over HTTP with the MCP SDK client", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => server.close());

  it("create → get → update → delete, with results that match each outputSchema", async () => {
    const { client } = await connectMcp(server.url, p.secret);
    try {
      const text = (res: unknown) => JSON.parse((res as { content: Array<{ text: string }> }).content[0].text);
      const username = unique();
      const created = await client.callTool({ name: "create_inbox", arguments: { username, displayName: "Over MCP", metadata: { via: "sdk" } } });
      expect(created.isError).toBeFalsy();
      const inboxId = (created.structuredContent as { inbox_id: string }).inbox_id;
      expect(text(created)).toEqual(created.structuredContent);
      const got = await client.callTool({ name: "get_inbox", arguments: { inboxId: `${username}@${defaultMailDomain()}` } });
      expect(got.structuredContent).toMatchObject({ inbox_id: inboxId, display_name: "Over MCP", metadata: { via: "sdk" } });
      const updated = await client.callTool({ name: "update_inbox", arguments: { inboxId, metadata: { via: null, step: 3 }, status: "disabled" } });
      expect(updated.structuredContent).toMatchObject({ status: "disabled", metadata: { step: 3 } });
      const deleted = await client.callTool({ name: "delete_inbox", arguments: { inboxId } });
      expect(deleted.structuredContent).toMatchObject({ inbox_id: inboxId, deleted: true });
      expect((await client.callTool({ name: "delete_inbox", arguments: { inboxId } })).structuredContent).toEqual(deleted.structuredContent);
      const missing = await client.callTool({ name: "get_inbox", arguments: { inboxId } });
      expect(missing.isError).toBe(true);
      expect(text(missing).code).toBe("NOT_FOUND");
      const bad = await client.callTool({ name: "create_inbox", arguments: { username: "Admin" } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatchObject({ code: "validation_error", details: [{ field: "username" }] });
      const tools = (await client.listTools()).tools.filter((t) => ["create_inbox", "update_inbox", "delete_inbox", "search_inboxes"].includes(t.name));
      expect(tools.map((t) => [t.name, t.annotations?.destructiveHint, t.annotations?.idempotentHint, t.annotations?.openWorldHint])).toEqual([
        ["search_inboxes", false, true, true],
        ["create_inbox", false, false, true],
        ["update_inbox", false, true, true],
        ["delete_inbox", true, true, true],
      ]);
    } finally {
      await client.close();
    }
  });

  it("REST: POST /inboxes, PATCH and DELETE /inboxes/{inbox_id}, GET /inboxes/search", async () => {
    const auth = { authorization: `Bearer ${p.secret}`, "content-type": "application/json" };
    const username = unique();
    const made = await fetch(`${server.url}/api/v1/inboxes`, { method: "POST", headers: auth, body: JSON.stringify({ username, display_name: "Rest Box" }) });
    expect(made.status).toBe(200);
    const box = await made.json();
    const bad = await fetch(`${server.url}/api/v1/inboxes`, { method: "POST", headers: auth, body: JSON.stringify({ display_name: "x".repeat(200) }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details).toEqual([{ field: "display_name", message: expect.any(String) }]);
    const found = await (await fetch(`${server.url}/api/v1/inboxes/search?q=${username}`, { headers: auth })).json();
    expect(found.inboxes.map((i: { inbox_id: string }) => i.inbox_id)).toEqual([box.inbox_id]);
    const patched = await fetch(`${server.url}/api/v1/inboxes/${box.inbox_id}`, {
      method: "PATCH",
      headers: auth,
      body: JSON.stringify({ metadata: { a: 1 } }),
    });
    expect((await patched.json()).metadata).toEqual({ a: 1 });
    for (let i = 0; i < 2; i++) {
      const del = await fetch(`${server.url}/api/v1/inboxes/${encodeURIComponent(box.email)}`, { method: "DELETE", headers: auth });
      expect(del.status).toBe(200);
      expect(await del.json()).toMatchObject({ inbox_id: box.inbox_id, deleted: true });
    }
  });
});
