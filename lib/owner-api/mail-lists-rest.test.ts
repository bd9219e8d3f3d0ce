import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { defaultMailbox } from "@/lib/mail/project-address";
import { namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { openApiDocument } from "@/lib/tools/adapters/openapi";
import { toolOpOf } from "@/lib/tools/registry";

/** Mail → Lists over owner REST (HTTP Basic): the screen's allow and block lists, ledgered as the screen's actions. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Lists REST");
});
afterAll(() => c.server.close());

describe("owner REST: allow and block lists", () => {
  it("adds to the global and an inbox's list, lists them, and removes, each change ledgered under its tool's op", async () => {
    const inbox = await defaultMailbox(await getDb(), c.seeded.project.id);
    const added = await c.call("POST", "/owner/mail/lists/receive/block", { entry: " Spammer.Example ", reason: "offers" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ inbox_id: null, entry: "spammer.example", entry_type: "domain", reason: "offers", created: true });
    expect((await c.entry(toolOpOf("create_list_entry")))?.actorType).toBe("owner");
    expect((await c.call("POST", "/owner/mail/lists/receive/block", { entry: "spammer.example" })).body.created).toBe(false);

    const mine = await c.call("POST", "/owner/mail/lists/send/allow", { entry: "ada@example.org", inbox_id: inbox.address });
    expect(mine.body).toMatchObject({ inbox_id: inbox.id, entry_type: "email", created: true });

    const global = (await c.call("GET", "/owner/mail/lists/receive/block")).body;
    expect(global.entries.map((e: { entry: string }) => e.entry)).toContain("spammer.example");
    expect(global.more).toBe(false);
    const inboxList = (await c.call("GET", `/owner/mail/lists/send/allow?inbox_id=${inbox.id}&limit=1`)).body;
    expect(inboxList.entries).toHaveLength(1);
    expect(inboxList.entries[0]).toMatchObject({ entry: "ada@example.org", inbox_id: inbox.id });

    const removed = await c.call("DELETE", "/owner/mail/lists/receive/block/spammer.example");
    expect(removed.body).toEqual({ entry: "spammer.example", removed: true });
    expect((await c.entry(toolOpOf("delete_list_entry")))?.actorType).toBe("owner");
    expect((await c.call("DELETE", "/owner/mail/lists/receive/block/spammer.example")).body.removed).toBe(false);
    expect((await c.call("GET", "/owner/mail/lists/receive/block")).body.entries).toEqual([]);
  });

  it("names the field of bad input, and adds nothing", async () => {
    const cases: [string, unknown, string][] = [
      ["/owner/mail/lists/receive/block", { entry: "not an address" }, "entry"],
      ["/owner/mail/lists/receive/block", {}, "entry"],
      ["/owner/mail/lists/receive/block", { entry: "a.example", reason: "x".repeat(501) }, "reason"],
      ["/owner/mail/lists/sideways/block", { entry: "a.example" }, "direction"],
      ["/owner/mail/lists/receive/maybe", { entry: "a.example" }, "type"],
    ];
    for (const [path, body, field] of cases) {
      const res = await c.call("POST", path, body);
      expect(res.status, field).toBe(400);
      expect(namesFields(res.body, [field]), JSON.stringify(res.body)).toBe(true);
    }
    expect((await c.call("POST", "/owner/mail/lists/receive/block", { entry: "a.example", inbox_id: "mbx_unknown" })).status).toBe(404);
    expect((await c.call("GET", "/owner/mail/lists/receive/block?limit=0")).status).toBe(400);
    expect((await c.call("GET", "/owner/mail/lists/receive/block")).body.entries).toEqual([]);
  });

  it("is in the OpenAPI document under the owner tag", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
    expect(doc.paths["/api/v1/owner/mail/lists/{direction}/{type}"]?.get).toMatchObject({ operationId: "owner_lists_list", tags: ["owner"] });
    expect(doc.paths["/api/v1/owner/mail/lists/{direction}/{type}"]?.post).toMatchObject({ operationId: "owner_lists_add", tags: ["owner"] });
    expect(doc.paths["/api/v1/owner/mail/lists/{direction}/{type}/{entry}"]?.delete).toMatchObject({ operationId: "owner_lists_remove", tags: ["owner"] });
  });
});
