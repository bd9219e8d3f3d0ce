import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDb } from "@/lib/db/client";
import { getKey } from "@/lib/disk/get-key";
import { query } from "@/lib/db/statement";
import { wellFormed } from "@/lib/text/well-formed";
import { MAX_BYTES, MAX_KEYS } from "@/lib/disk/limits";
import { adjustUsage, purgeExpiredKeys } from "@/lib/disk/usage";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { mcpCaller, restClient, setUsage, usageMatchesRows } from "@/lib/disk/__tests__/helpers";

let server: Awaited<ReturnType<typeof startApiServer>>;
let client: Client;
let call: ReturnType<typeof mcpCaller>;
let rest: ReturnType<typeof restClient>;
let projectId: string;

beforeAll(async () => {
  server = await startApiServer();
  const seeded = await seedProject({ scopes: ["disk"] });
  projectId = seeded.project.id;
  client = (await connectMcp(server.url, seeded.secret)).client;
  call = mcpCaller(client);
  rest = restClient(server.url, seeded.secret);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const enc = encodeURIComponent;

describe("kv_set / kv_get", () => {
  it("returns the value exactly as saved, over MCP and REST", async () => {
    const value = { b: 1, a: [1.5, "x", null, { z: true, y: -0.25 }], ü: "é 🦀", empty: {}, n: 12345678901 };
    const set = await call("kv_set", { key: "orders/1042", value });
    expect(set.data).toMatchObject({ key: "orders/1042", size_bytes: Buffer.byteLength(JSON.stringify(value)), expires_at: null, version: 1 });
    const got = await call("kv_get", { key: "orders/1042" });
    expect(JSON.stringify(got.data.value)).toBe(JSON.stringify(value));
    expect(got.data.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const viaRest = await rest("GET", "/kv/orders/1042");
    expect(viaRest.status).toBe(200);
    expect(JSON.stringify(viaRest.body.value)).toBe(JSON.stringify(value));
    for (const scalar of ["text", 0, false, null, [1, [2]]]) {
      await rest("PUT", `/kv/${enc("scalars/one")}`, { value: scalar });
      expect((await rest("GET", "/kv/scalars/one")).body.value).toEqual(scalar);
    }
  });

  it("answers nulls for a missing key, and a missing value is saved as null", async () => {
    expect((await call("kv_get", { key: "nothing/here" })).data).toEqual({
      key: "nothing/here",
      value: null,
      expires_at: null,
      updated_at: null,
      version: null,
    });
    await call("kv_set", { key: "no-value" });
    expect((await call("kv_get", { key: "no-value" })).data).toMatchObject({ value: null, version: 1 });
  });

  it("round-trips URL-encoded keys over REST and routes /kv apart from /kv/{key}", async () => {
    const key = "odd/ key ü?#%&+=/end";
    const put = await rest("PUT", `/kv/${enc(key)}`, { value: { ok: 1 } });
    expect(put.status).toBe(200);
    expect(put.body.key).toBe(key);
    expect((await rest("GET", `/kv/${enc(key)}`)).body.value).toEqual({ ok: 1 });
    expect((await call("kv_get", { key })).data.value).toEqual({ ok: 1 });
    const list = await rest("GET", `/kv?prefix=${enc("odd/")}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { key: string }) => i.key)).toEqual([key]);
    expect((await rest("GET", "/kv/")).body.items).toBeInstanceOf(Array);
    const bad = await rest("GET", "/kv/%zz");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_error");
  });

  it("refuses to write a key or task with . or .. between slashes over MCP, which no REST URL could reach", async () => {
    for (const key of [".", "..", "a/./b", "orders/.."]) {
      const set = await call("kv_set", { key, value: 1 });
      expect(set.error, key).toMatchObject({ code: "validation_error", message: expect.stringContaining("key") });
      const saved = await call("state_save", { task_id: key, state: {} });
      expect(saved.error, key).toMatchObject({ code: "validation_error", message: expect.stringContaining("task_id") });
    }
    // Dots inside a segment are ordinary text, reachable both ways.
    expect((await call("kv_set", { key: "v1.2/..x", value: 2 })).error).toBeUndefined();
    expect((await rest("GET", `/kv/${enc("v1.2/..x")}`)).body.value).toBe(2);
  });

  it("expires keys after ttl_seconds: null on read, left out of lists, not deletable", async () => {
    const asked = Date.now();
    const set = await call("kv_set", { key: "ttl/short", value: 1, ttl_seconds: 1 });
    const answered = Date.now();
    // A second from the write, which lies between the two readings of the clock.
    const expires = new Date(set.data.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(asked + 1000);
    expect(expires).toBeLessThanOrEqual(answered + 1000);
    await call("kv_set", { key: "ttl/long", value: 2, ttl_seconds: 3600 });
    // The live key reads back (ttl/short may already be gone on a busy machine: a second is no promise).
    expect((await call("kv_get", { key: "ttl/long" })).data.value).toBe(2);
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now()) + 100));
    expect((await call("kv_get", { key: "ttl/short" })).data).toMatchObject({ value: null, expires_at: null });
    const keys = (await call("kv_list", { prefix: "ttl/" })).data.items.map((i: { key: string }) => i.key);
    expect(keys).toEqual(["ttl/long"]);
    expect((await call("kv_delete", { key: "ttl/short" })).data).toEqual({ deleted: false });
    // Rewriting a live key keeps counting, and without ttl_seconds it no longer expires.
    expect((await call("kv_set", { key: "ttl/long", value: 3 })).data).toMatchObject({ version: 2, expires_at: null });
    // An expired key counts as absent: if_version 1 is refused, and writing it goes on counting (version 2), so a
    // version read before it expired never matches the new value.
    const stale = await call("kv_set", { key: "ttl/short", value: 4, if_version: 1 });
    expect(stale.error).toMatchObject({ code: "CONFLICT", details: { current_version: 0 } });
    expect((await call("kv_set", { key: "ttl/short", value: 4, if_version: 0 })).data).toMatchObject({ version: 2, expires_at: null });
    expect((await call("kv_get", { key: "ttl/short" })).data).toMatchObject({ value: 4, version: 2 });
  });
});

describe("concurrent reads", () => {
  it("answers each of many simultaneous kv_get calls with its own key, across projects, absent and expired keys", async () => {
    // Two projects of their own, so the quota and ledger tests below count only their own rows.
    const [mine, other] = await Promise.all([seedProject({ scopes: ["disk"], name: "reads A" }), seedProject({ scopes: ["disk"], name: "reads B" })]);
    const restMine = restClient(server.url, mine.secret);
    const restOther = restClient(server.url, other.secret);
    for (let i = 0; i < 20; i++) {
      await restMine("PUT", `/kv/${enc(`many/${i}`)}`, { value: { mine: i } });
      await restOther("PUT", `/kv/${enc(`many/${i}`)}`, { value: { theirs: i } });
    }
    await restMine("PUT", `/kv/${enc("many/expiring")}`, { value: 1, ttl_seconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    // Fired together, these share statements (get-key.ts); each must still get exactly its own answer.
    const reads = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => restMine("GET", `/kv/${enc(`many/${i}`)}`)),
      ...Array.from({ length: 20 }, (_, i) => restOther("GET", `/kv/${enc(`many/${19 - i}`)}`)),
      restMine("GET", `/kv/${enc("many/absent")}`),
      restMine("GET", `/kv/${enc("many/expiring")}`),
      restMine("GET", "/state/nobody"),
    ]);
    for (let i = 0; i < 20; i++) {
      expect(reads[i].body).toMatchObject({ key: `many/${i}`, value: { mine: i }, version: 1 });
      expect(reads[20 + i].body).toMatchObject({ key: `many/${19 - i}`, value: { theirs: 19 - i }, version: 1 });
    }
    expect(reads[40].body).toMatchObject({ key: "many/absent", value: null, version: null });
    expect(reads[41].body).toMatchObject({ key: "many/expiring", value: null, version: null });
    expect(reads[42].body).toMatchObject({ task_id: "nobody", state: null });

    // Called in one tick, every read goes in one statement: mixed projects, absent and expired keys.
    const db = await getDb();
    const direct = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => getKey(db, { actor: i % 2 ? mine.actor : other.actor, key: `many/${i}` })),
      getKey(db, { actor: other.actor, key: "many/expiring" }),
      getKey(db, { actor: mine.actor, key: "many/expiring" }),
    ]);
    direct.slice(0, 20).forEach((r, i) => expect(r).toMatchObject({ key: `many/${i}`, value: i % 2 ? { mine: i } : { theirs: i } }));
    expect(direct.slice(20).map((r) => r.value)).toEqual([null, null]);
  });
});

describe("kv_list", () => {
  it("lists in byte order with a prefix (LIKE characters literal) and pages with next_cursor", async () => {
    for (const k of ["bo/a", "bo/Z", "bo/é", "bo/z", "bo/10", "bo/2", "bo%x", "bo_x", "box"]) await call("kv_set", { key: k, value: k });
    const all = (await call("kv_list", { prefix: "bo/", limit: 100 })).data;
    expect(all.items.map((i: { key: string }) => i.key)).toEqual(["bo/10", "bo/2", "bo/Z", "bo/a", "bo/z", "bo/é"]);
    expect(all.next_cursor).toBeNull();
    expect(all.items[0]).toMatchObject({ size_bytes: 7, expires_at: null });
    expect((await call("kv_list", { prefix: "bo%" })).data.items.map((i: { key: string }) => i.key)).toEqual(["bo%x"]);
    expect((await call("kv_list", { prefix: "bo_" })).data.items.map((i: { key: string }) => i.key)).toEqual(["bo_x"]);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const r = (await rest("GET", `/kv?prefix=bo%2F&limit=4${cursor ? `&cursor=${cursor}` : ""}`)).body;
      seen.push(...r.items.map((i: { key: string }) => i.key));
      cursor = r.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(all.items.map((i: { key: string }) => i.key));
  });

  it("refuses a cursor it did not issue and limits outside 1–100", async () => {
    // base64url of a NUL: decodes and re-encodes the same, and failed the query as a 500.
    for (const args of [{ cursor: "not a cursor!" }, { cursor: "AA" }, { limit: 0 }, { limit: 101 }, { prefix: "a\u0000" }]) {
      const r = await call("kv_list", args);
      expect(r.error?.code).toBe("validation_error");
    }
  });

  it("refuses a cursor returned for another prefix, naming cursor, instead of an empty last page", async () => {
    for (const k of ["pa/1", "pa/2", "pb/1", "pb/2"]) await call("kv_set", { key: k, value: k });
    const { next_cursor } = (await call("kv_list", { prefix: "pb/", limit: 1 })).data;
    expect(next_cursor).toEqual(expect.any(String));
    const r = await call("kv_list", { prefix: "pa/", cursor: next_cursor });
    expect(r.error).toMatchObject({ code: "validation_error", message: "cursor: was returned for another prefix" });
    // A wider prefix holds the same key, so the cursor is a place in it.
    expect((await call("kv_list", { prefix: "p", cursor: next_cursor })).data.items.map((i: { key: string }) => i.key)).toEqual(["pb/2"]);
  });
});

describe("kv_delete", () => {
  it("deletes once and reports absent keys", async () => {
    await call("kv_set", { key: "del/me", value: 1 });
    expect((await rest("DELETE", "/kv/del/me")).body).toEqual({ deleted: true });
    expect((await rest("DELETE", "/kv/del/me")).body).toEqual({ deleted: false });
  });
});

describe("state_save / state_load", () => {
  it("saves task state with a note, readable by state_load and kv_get, deletable with kv_delete", async () => {
    const state = { done: ["refund"], next: "email customer", request_id: "req_123" };
    const saved = await call("state_save", { task_id: "refund-1042", state, note: "waiting for approval" });
    expect(saved.data).toMatchObject({ task_id: "refund-1042", key: "state/refund-1042" });
    expect((await call("state_load", { task_id: "refund-1042" })).data).toMatchObject({
      task_id: "refund-1042",
      state,
      note: "waiting for approval",
      saved_at: saved.data.saved_at,
    });
    expect((await call("kv_get", { key: "state/refund-1042" })).data.value).toEqual(state);
    const viaRest = await rest("PUT", "/state/refund-1042", { state: { step: 2 } });
    expect(viaRest.body).toMatchObject({ version: saved.data.version + 1 });
    expect((await rest("GET", "/state/refund-1042")).body).toMatchObject({ state: { step: 2 }, note: null });
    expect((await call("kv_delete", { key: "state/refund-1042" })).data).toEqual({ deleted: true });
    expect((await call("state_load", { task_id: "refund-1042" })).data).toEqual({
      task_id: "refund-1042",
      state: null,
      note: null,
      saved_at: null,
      version: null,
    });
  });

  it("refuses kv_set under state/, an over-long task_id, a long note and an oversized state", async () => {
    const r = await call("kv_set", { key: "state/x", value: 1 });
    expect(r.error).toMatchObject({ code: "validation_error" });
    expect(r.error.message).toMatch(/^key: /);
    expect((await rest("PUT", "/kv/state%2Fy", { value: 1 })).body.error.code).toBe("validation_error");
    expect((await call("state_save", { task_id: "t".repeat(507), state: 1 })).error.message).toMatch(/^task_id: /);
    expect((await call("state_save", { task_id: "t".repeat(506), state: 1 })).data.key).toHaveLength(512);
    expect((await call("state_save", { task_id: "t", note: "n".repeat(501) })).error.message).toMatch(/^note: /);
    // 500 characters, 1,000 UTF-16 units: the tool's schema and the store count alike.
    expect((await call("state_save", { task_id: "t", note: "😀".repeat(500) })).data.task_id).toBe("t");
    expect((await call("state_save", { task_id: "t", note: "😀".repeat(501) })).error.message).toMatch(/^note: /);
    expect((await call("state_save", { task_id: "t", state: "s".repeat(256 * 1024) })).error.message).toMatch(/^state: /);
    expect((await call("state_save", { task_id: "" })).error.code).toBe("validation_error");
  });
});

describe("optimistic concurrency", () => {
  it("fails with CONFLICT when if_version differs from the stored version", async () => {
    // A new key's first version is 1 in a project that never deleted a key, else above any deleted key's (below).
    const v = (await call("kv_set", { key: "occ/a", value: 1, if_version: 0 })).data.version;
    expect((await call("kv_set", { key: "occ/a", value: 2, if_version: 0 })).error.code).toBe("CONFLICT");
    expect((await call("kv_set", { key: "occ/a", value: 2, if_version: v })).data.version).toBe(v + 1);
    const stale = await call("kv_set", { key: "occ/a", value: 3, if_version: v });
    expect(stale.error).toMatchObject({ code: "CONFLICT" });
    expect((await call("kv_get", { key: "occ/a" })).data).toMatchObject({ value: 2, version: v + 1 });
    expect((await call("kv_set", { key: "occ/new", value: 1, if_version: v + 4 })).error.code).toBe("CONFLICT");
    const state = (await call("state_save", { task_id: "occ", state: 1 })).data.version;
    expect((await call("state_save", { task_id: "occ", state: 2, if_version: state + 7 })).error.code).toBe("CONFLICT");
  });

  it("never repeats a version once a key is deleted or purged: an if_version read before cannot overwrite the new value", async () => {
    // Agent A reads occ/aba at version 2; B deletes it; C writes it again. A's write with if_version 2 must fail.
    const first = (await call("kv_set", { key: "occ/aba", value: "first" })).data.version;
    const read = (await call("kv_set", { key: "occ/aba", value: "second" })).data.version;
    expect(read).toBe(first + 1);
    expect((await call("kv_delete", { key: "occ/aba" })).data).toEqual({ deleted: true });
    const again = await call("kv_set", { key: "occ/aba", value: "C's", if_version: 0 });
    expect(again.data.version).toBeGreaterThan(read);
    const stale = await call("kv_set", { key: "occ/aba", value: "A's", if_version: read });
    expect(stale.error).toMatchObject({ code: "CONFLICT", details: { current_version: again.data.version } });
    expect((await call("kv_get", { key: "occ/aba" })).data).toMatchObject({ value: "C's", version: again.data.version });
    // The same once an expired key is purged (the sweep, or a write at the quota), and for task state.
    await call("state_save", { task_id: "aba", state: 1 });
    const saved = (await call("state_save", { task_id: "aba", state: 2 })).data.version;
    expect((await call("kv_delete", { key: "state/aba" })).data).toEqual({ deleted: true });
    expect((await call("state_save", { task_id: "aba", state: "new", if_version: saved })).error.code).toBe("CONFLICT");
    await call("kv_set", { key: "occ/expiring", value: 1, ttl_seconds: 1 });
    const old = await call("kv_set", { key: "occ/expiring", value: 2, ttl_seconds: 1 });
    const db = await getDb();
    await query(db, sql`update kv_entries set expires_at = now() - interval '1 second' where project_id = ${projectId} and key = 'occ/expiring'`);
    expect(await purgeExpiredKeys(db, projectId)).toBeGreaterThan(0);
    expect((await call("kv_set", { key: "occ/expiring", value: 3 })).data.version).toBeGreaterThan(old.data.version);
  });

  it("serialises concurrent writers of one key: every write lands, each with its own version", async () => {
    const writes = await Promise.all(Array.from({ length: 12 }, (_, i) => call("kv_set", { key: "occ/hot", value: i })));
    expect(writes.filter((w) => w.error)).toEqual([]);
    const versions = writes.map((w) => w.data.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => versions[0] + i));
    // With if_version, exactly one of several writers holding the same version wins.
    const last = versions[11];
    const racers = await Promise.all(Array.from({ length: 6 }, (_, i) => call("kv_set", { key: "occ/hot", value: `r${i}`, if_version: last })));
    expect(racers.filter((r) => r.data).length).toBe(1);
    expect(racers.filter((r) => r.error?.code === "CONFLICT").length).toBe(5);
  });

  it("speaks ETag / If-Match over REST", async () => {
    const put = await rest("PUT", "/kv/occ%2Fetag", { value: "v1" });
    const v = put.body.version;
    expect(put.headers.get("etag")).toBe(`"${v}"`);
    const get = await rest("GET", "/kv/occ%2Fetag");
    expect(get.headers.get("etag")).toBe(`"${v}"`);
    const ok = await rest("PUT", "/kv/occ%2Fetag", { value: "v2" }, { "if-match": `"${v}"` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe(`"${v + 1}"`);
    const lost = await rest("PUT", "/kv/occ%2Fetag", { value: "v3" }, { "if-match": `"${v}"` });
    expect(lost.status).toBe(409);
    expect(lost.body.error.code).toBe("CONFLICT");
    const garbage = await rest("PUT", "/kv/occ%2Fetag", { value: "v3" }, { "if-match": "*" });
    expect(garbage.status).toBe(400);
    expect((await rest("GET", "/state/none")).headers.get("etag")).toBeNull();
    expect((await rest("PUT", "/state/etag-task", { state: 1 }, { "if-match": 'W/"0"' })).status).toBe(200);
    const doc = (await rest("GET", "/openapi.json")).body;
    expect(doc.paths["/api/v1/kv/{key}"].put.parameters.map((p: { name: string }) => p.name)).toEqual(["key", "If-Match"]);
  });
});

describe("bad input", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a control character in the key", { key: "a\u0001b", value: 1 }, "key"],
    ["a DEL in the key", { key: "a\u007fb", value: 1 }, "key"],
    ["a key over 512 bytes", { key: "é".repeat(257), value: 1 }, "key"],
    ["an empty key", { key: "", value: 1 }, "key"],
    ["a lone surrogate", { key: "a\ud800", value: 1 }, "key"],
    ["a value over 256 KB", { key: "big", value: "x".repeat(256 * 1024 - 1) }, "value"],
    ["ttl_seconds 0", { key: "t", value: 1, ttl_seconds: 0 }, "ttl_seconds"],
    ["ttl_seconds over a year", { key: "t", value: 1, ttl_seconds: 31_536_001 }, "ttl_seconds"],
    ["a fractional ttl", { key: "t", value: 1, ttl_seconds: 1.5 }, "ttl_seconds"],
    ["a negative if_version", { key: "t", value: 1, if_version: -1 }, "if_version"],
    // Found by fuzzing: past the version column's range it was a 500 (Postgres "out of range for type integer").
    ["an if_version past any version (2^31)", { key: "t", value: 1, if_version: 2 ** 31 }, "if_version"],
  ];
  it.each(cases)("kv_set refuses %s naming the field, over MCP and REST", async (_what, args, field) => {
    const viaMcp = await call("kv_set", args);
    expect(viaMcp.error).toMatchObject({ code: "validation_error" });
    expect(viaMcp.error.message.startsWith(`${field}: `)).toBe(true);
    const { key, ...body } = args as { key: string };
    if (key) {
      // A lone surrogate has no UTF-8 form: its nearest URL spelling is the invalid sequence %ED%A0%80.
      const inPath = wellFormed(key) ? enc(key) : "a%ED%A0%80";
      const viaRest = await rest("PUT", `/kv/${inPath}`, body);
      expect(viaRest.status).toBe(400);
      expect(viaRest.body.error.code).toBe("validation_error");
    }
  });

  it("accepts the limits themselves: a 512-byte key, a 256 KB value, a one-year TTL", async () => {
    expect((await call("kv_set", { key: "k".repeat(512), value: 1 })).data.key).toHaveLength(512);
    expect((await call("kv_set", { key: "big", value: "x".repeat(256 * 1024 - 2) })).data.size_bytes).toBe(256 * 1024);
    expect((await call("kv_set", { key: "year", value: 1, ttl_seconds: 31_536_000 })).error).toBeUndefined();
    for (const key of ["k".repeat(513), "a\nb"]) expect((await call("kv_get", { key })).error.code).toBe("validation_error");
    expect((await call("kv_delete", { key: "a\tb" })).error.code).toBe("validation_error");
  });
});

describe("quotas", () => {
  it("never lets concurrent writers pass 10,000 keys", async () => {
    const start = await usageMatchesRows(projectId);
    await setUsage(projectId, MAX_KEYS - 10, start.usage.bytes);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => rest("PUT", `/kv/race-keys%2F${i}`, { value: i })));
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429 && r.body.error.code === "QUOTA_EXCEEDED").length;
    expect([ok, refused]).toEqual([10, 20]);
    const after = await usageMatchesRows(projectId);
    expect(after.usage.keys).toBe(MAX_KEYS);
    expect(after.rows.keys - start.rows.keys).toBe(10);
    // Replacing an existing key needs no new key.
    const winner = results.findIndex((r) => r.status === 200);
    expect((await rest("PUT", `/kv/race-keys%2F${winner}`, { value: "again" })).status).toBe(200);
    expect((await rest("PUT", "/kv/race-keys%2Fanother", { value: "new" })).status).toBe(429);
    await setUsage(projectId, after.rows.keys, after.rows.bytes);
  });

  it("never lets concurrent writers pass 1 GB", async () => {
    const start = await usageMatchesRows(projectId);
    await setUsage(projectId, start.usage.keys, MAX_BYTES - 10_000);
    const value = "x".repeat(998); // 1,000 bytes once serialised
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call("kv_set", { key: `race-bytes/${i}`, value })));
    expect(results.filter((r) => r.data).length).toBe(10);
    expect(results.filter((r) => r.error?.code === "QUOTA_EXCEEDED").length).toBe(20);
    const after = await usageMatchesRows(projectId);
    expect(after.usage.bytes).toBe(MAX_BYTES);
    expect(after.rows.bytes - start.rows.bytes).toBe(10_000);
    // Shrinking a value always works, even at the limit.
    const winner = results.findIndex((r) => r.data);
    const shrunk = await call("kv_set", { key: `race-bytes/${winner}`, value: "" });
    expect(shrunk.error).toBeUndefined();
    expect(shrunk.data.size_bytes).toBe(2);
    await setUsage(projectId, after.rows.keys, after.rows.bytes - 998);
  });

  it("frees the space of expired keys before refusing", async () => {
    await call("kv_set", { key: "quota/expiring", value: "v", ttl_seconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const now = await usageMatchesRows(projectId);
    await setUsage(projectId, MAX_KEYS, now.usage.bytes);
    expect((await call("kv_set", { key: "quota/new", value: 1 })).error).toBeUndefined();
    const after = await usageMatchesRows(projectId);
    expect(after.usage.keys).toBe(MAX_KEYS);
    await setUsage(projectId, after.rows.keys, after.rows.bytes);
  });

  it("saves all of 20 concurrent first writes to a fresh project's disk", async () => {
    const fresh = await seedProject({ scopes: ["disk"] });
    const freshRest = restClient(server.url, fresh.secret);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => freshRest("PUT", `/kv/first%2F${i}`, { value: i })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const { usage, rows } = await usageMatchesRows(fresh.project.id);
    expect(rows.keys).toBe(20);
    expect(usage).toEqual(rows);
  });

  it("never lets concurrent first writers to a fresh project pass 1 GB", async () => {
    const fresh = await seedProject({ scopes: ["disk"] });
    const db = await getDb();
    const eighth = MAX_BYTES / 8;
    const granted = await Promise.all(Array.from({ length: 20 }, () => db.transaction((tx) => adjustUsage(tx, fresh.project.id, { keys: 1, bytes: eighth }))));
    expect(granted.filter(Boolean).length).toBe(8);
    const [usage] = await query<{ keys: number; bytes: number }>(db, sql`select keys, bytes from disk_usage where project_id = ${fresh.project.id}`);
    expect(usage).toEqual({ keys: 8, bytes: MAX_BYTES });
  });

  it("keeps usage equal to the rows after all of the above", async () => {
    const { usage, rows } = await usageMatchesRows(projectId);
    expect(usage).toEqual(rows);
  });
});

describe("ledger", () => {
  it("records every write with the key as subject, and nothing for a refused call", async () => {
    await call("kv_set", { key: "ledgered", value: 1 });
    await call("kv_set", { key: "ledgered", value: 2, if_version: 2 ** 31 - 1 });
    const rows = await query<{ op: string; subject: string }>(
      await getDb(),
      sql`select op, subject from ledger_entries where project_id = ${projectId} and subject = 'ledgered'`,
    );
    expect(rows).toEqual([{ op: "kv.set", subject: "ledgered" }]);
  });
});
