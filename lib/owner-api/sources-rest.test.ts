import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asKey, namesFields, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { MAX_SOURCES_PER_PROJECT } from "@/lib/sources/add-source";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { seedProject } from "@/lib/testing/seed";

/** The Sources screen's actions over owner REST (HTTP Basic): the same domain functions, the same ledger ops. */
let c: Awaited<ReturnType<typeof ownerClient>>;
beforeAll(async () => {
  c = await ownerClient("Sources REST");
});
afterAll(() => c.server.close());

describe("owner REST: sources", () => {
  it("adds a webhook source whose URL takes a signed delivery, tests, rotates and removes it, each ledgered as on the screen", async () => {
    const added = await c.call("POST", "/owner/sources", { type: "webhook", name: "shop", verification: "hmac_sha256", secret: "a-long-shop-secret" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: "shop", type: "webhook", verification: "hmac_sha256" });
    expect(added.body.url).toContain("/hooks/");
    expect(JSON.stringify(added.body)).not.toContain("a-long-shop-secret");
    const addEntry = await c.entry("source.add");
    expect(addEntry).toMatchObject({ subject: added.body.id, via: "rest", actorType: "owner" });

    const listed = await c.call("GET", "/owner/sources");
    expect(listed.body.sources.map((s: { name: string }) => s.name)).toContain("shop");

    const test = await c.call("POST", "/owner/sources/shop/test");
    expect(test.status).toBe(201);
    expect(test.body.id).toMatch(/^evt_/);
    expect((await c.entry("source.test"))?.subject).toBe(test.body.id);

    const rotated = await c.call("POST", "/owner/sources/shop/rotate-secret", { secret: "the-next-shop-secret", grace_hours: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ source_id: added.body.id, name: "shop" });
    expect(rotated.body.previous_valid_until).not.toBeNull();
    expect((await c.entry("source.rotate_secret"))?.subject).toBe(added.body.id);

    const removed = await c.call("DELETE", "/owner/sources/shop");
    expect(removed.body).toEqual({ name: "shop" });
    expect((await c.entry("source.remove"))?.subject).toBe(added.body.id);
    expect((await c.call("GET", "/owner/sources")).body.sources.map((s: { name: string }) => s.name)).not.toContain("shop");
  });

  it("names the field of bad input, answers 404 for an unknown source and 409 for a name taken", async () => {
    const bad = await c.call("POST", "/owner/sources", { type: "webhook", name: "Bad Name!", verification: "stripe" });
    expect(bad.status).toBe(400);
    expect(namesFields(bad.body, ["name", "secret"])).toBe(true);
    const unknownField = await c.call("POST", "/owner/sources", { type: "email", name: "mail", colour: "red" });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toContain("colour");

    expect((await c.call("DELETE", "/owner/sources/nope")).status).toBe(404);
    expect((await c.call("POST", "/owner/sources/nope/test")).status).toBe(404);
    expect((await c.call("POST", "/owner/sources/nope/rotate-secret", { secret: "another-secret" })).status).toBe(404);

    expect((await c.call("POST", "/owner/sources", { type: "webhook", name: "dup" })).status).toBe(201);
    const before = await c.entry("source.add");
    const dup = await c.call("POST", "/owner/sources", { type: "webhook", name: "dup" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("CONFLICT");
    // Nothing half-written: the refused call left no entry.
    expect((await c.entry("source.add"))?.id).toBe(before?.id);
    const noSecret = await c.call("POST", "/owner/sources/dup/rotate-secret", { secret: "another-secret" });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.code).toBe("validation_error");
  });

  it("stops at MAX_SOURCES_PER_PROJECT live sources, for an agent's source_add as for the owner, and writes nothing past it", async () => {
    const { project, secret } = await seedProject({ name: "Sources cap" });
    const asOwner = { "x-brynth-project": project.id };
    for (let i = 0; i < MAX_SOURCES_PER_PROJECT; i++) {
      expect((await c.call("POST", "/owner/sources", { type: "webhook", name: `s${i}` }, asOwner)).status).toBe(201);
    }
    const before = await lastLedgerEntry(project.id, "source.add");
    const owner = await c.call("POST", "/owner/sources", { type: "webhook", name: "one-more" }, asOwner);
    expect(owner.status).toBe(429);
    expect(owner.body.error.code).toBe("QUOTA_EXCEEDED");
    const agent = await c.call("POST", "/sources", { type: "webhook", name: "agents-one-more" }, asKey(secret));
    expect(agent.status).toBe(429);
    expect((await lastLedgerEntry(project.id, "source.add"))?.id).toBe(before?.id);
    expect((await c.call("GET", "/owner/sources", undefined, asOwner)).body.sources).toHaveLength(MAX_SOURCES_PER_PROJECT);
    // A removed source frees its place.
    expect((await c.call("DELETE", "/owner/sources/s0", undefined, asOwner)).status).toBe(200);
    expect((await c.call("POST", "/owner/sources", { type: "webhook", name: "one-more" }, asOwner)).status).toBe(201);
  });
});
