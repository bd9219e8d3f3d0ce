import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerBasic, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";

/**
 * A query parameter given twice (`?limit=5&limit=50`, as a proxy appending its own may send) was read as its last
 * value, so the caller got a result for arguments it did not send. Over a real server: a scalar argument given twice
 * is a validation_error naming it as the caller wrote it, before anything runs; a list argument still repeats its key.
 * The live stream's query, parsed on its own, refuses the same way (lib/http/one-query-value.ts).
 */
let c: Awaited<ReturnType<typeof ownerClient>>;

beforeAll(async () => {
  c = await ownerClient("Repeated query");
});
afterAll(async () => {
  await c.server.close();
});

async function api(method: string, path: string, opts: { body?: unknown; owner?: true } = {}) {
  const res = await fetch(`${c.server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: opts.owner ? ownerBasic : `Bearer ${c.seeded.secret}`,
      "content-type": "application/json",
      "x-brynth-project": c.seeded.project.id,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below
  return { status: res.status, body: (await res.json()) as any };
}

/** The refusal of a field given twice: a 400 validation_error naming that field alone, with a fix that names it. */
function refusedTwice(res: Awaited<ReturnType<typeof api>>, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toMatchObject({ code: "validation_error", details: [{ field, message: "given 2 times in the query; it takes one value" }] });
  expect(res.body.error.fix).toContain(`Send ${field} once`);
}

describe("a Brynth tool over REST (kv_list, kv_set)", () => {
  it("refuses prefix or limit given twice, and still lists with each given once", async () => {
    for (const key of ["a/1", "a/2", "b/1"]) expect((await api("PUT", `/kv/${encodeURIComponent(key)}`, { body: { value: key } })).status).toBe(200);
    refusedTwice(await api("GET", "/kv?prefix=a%2F&prefix=b%2F"), "prefix");
    refusedTwice(await api("GET", "/kv?limit=1&limit=50"), "limit");
    // The same value twice is still two values: the caller is told, not guessed for.
    refusedTwice(await api("GET", "/kv?limit=1&limit=1"), "limit");
    const once = await api("GET", "/kv?prefix=a%2F&limit=1");
    expect(once.status).toBe(200);
    expect(once.body.items.map((i: { key: string }) => i.key)).toEqual(["a/1"]);
  });

  it("refuses a write's query argument given twice before writing anything", async () => {
    refusedTwice(await api("PUT", "/kv/dup?ttl_seconds=60&ttl_seconds=600", { body: { value: 1 } }), "ttl_seconds");
    expect((await api("GET", "/kv/dup")).body).toMatchObject({ value: null, version: null });
  });
});

describe("a mailbox tool over REST (list_messages, create_list_entry)", () => {
  it("names the field in snake_case: limit, page_token and include_spam given twice", async () => {
    const mail = await seedReceivedMail(c.seeded.project.id, (await seedMailbox(c.seeded.project.id)).id);
    const path = `/inboxes/${mail.inbox}/messages`;
    refusedTwice(await api("GET", `${path}?limit=1&limit=50`), "limit");
    refusedTwice(await api("GET", `${path}?page_token=a&page_token=b`), "page_token");
    refusedTwice(await api("GET", `${path}?include_spam=true&include_spam=false`), "include_spam");
    expect((await api("GET", `${path}?limit=1&include_spam=true`)).body.count).toBe(1);
  });

  it("keeps labels, a list, as its key repeated: every value must match", async () => {
    const mail = await seedReceivedMail(c.seeded.project.id, (await seedMailbox(c.seeded.project.id)).id);
    const path = `/inboxes/${mail.inbox}/messages`;
    const ids = async (query: string) => {
      const res = await api("GET", `${path}?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.messages.map((m: { message_id: string }) => m.message_id);
    };
    expect(await ids("labels=received")).toEqual([mail.message]);
    expect(await ids("labels=received&labels=unread")).toEqual([mail.message]);
    expect(await ids("labels=received&labels=nowhere")).toEqual([]);
  });

  it("refuses inbox_id given twice on a write, and adds the entry to neither inbox", async () => {
    const one = await seedMailbox(c.seeded.project.id);
    const two = await seedMailbox(c.seeded.project.id);
    const res = await api("POST", `/lists/receive/block?inbox_id=${one.id}&inbox_id=${two.id}`, { body: { entry: "twice.example" } });
    refusedTwice(res, "inbox_id");
    for (const box of [one, two]) {
      const listed = await api("GET", `/lists/receive/block?inbox_id=${box.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.entries).toEqual([]);
    }
  });
});

describe("owner REST", () => {
  it("refuses a list route's limit given twice, and a tool's list argument still repeats with the owner's credentials", async () => {
    refusedTwice(await api("GET", "/owner/quarantine?limit=1&limit=100", { owner: true }), "limit");
    refusedTwice(await api("GET", "/owner/policy/history?before=2&before=9", { owner: true }), "before");
    const drafts = await api("GET", "/drafts?labels=pending_approval&labels=unread", { owner: true });
    expect(drafts.status, JSON.stringify(drafts.body)).toBe(200);
    expect(drafts.body.drafts).toEqual([]);
  });
});

describe("the live stream's query (GET /api/v1/stream)", () => {
  it("refuses since or event_changes given twice with 400 before the stream opens", async () => {
    refusedTwice(await api("GET", "/stream?since=mev_a&since=mev_b"), "since");
    refusedTwice(await api("GET", "/stream?event_changes=true&event_changes=false"), "event_changes");
    refusedTwice(await api("GET", "/stream?inbox_ids=a%40x.test&mail_events=true&mail_events=true"), "mail_events");
  });
});

describe("a query parameter named like an Object.prototype member", () => {
  it("is an unknown argument like any other, on a Brynth tool and a mailbox tool, read or write", async () => {
    // Before: `?__proto__=x` set the arguments' prototype (a string is ignored), vanished, and the call ran (200).
    for (const [method, path] of [
      ["GET", "/ledger?__proto__=x"],
      ["GET", "/ledger?__proto__=x&op=kv.set"],
      ["GET", "/inboxes?__proto__=1"],
      ["PUT", "/kv/proto?__proto__=1"],
    ] as const) {
      const res = await api(method, path, method === "PUT" ? { body: { value: 1 } } : {});
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_error", details: [{ field: "__proto__", message: "Unknown argument: __proto__" }] });
    }
    expect((await api("GET", "/kv/proto")).body).toMatchObject({ value: null });
    for (const name of ["constructor", "toString"]) expect((await api("GET", `/ledger?${name}=1`)).status).toBe(400);
  });
});
