import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namesFields, ownerBasic, ownerClient } from "@/lib/owner-api/__tests__/owner-client";
import { watchProcessFaults } from "@/lib/testing/fuzz/process-faults";

/**
 * Owner REST against what a hostile script sends: text PostgreSQL cannot store and times timestamptz cannot hold.
 * Each is refused as a validation_error naming its field, nothing is written, and the server logs no unexpected error.
 */
let c: Awaited<ReturnType<typeof ownerClient>>;
let faults: ReturnType<typeof watchProcessFaults>;
beforeAll(async () => {
  c = await ownerClient("Hostile owner REST");
  faults = watchProcessFaults();
});
afterAll(async () => {
  faults.stop();
  await c.server.close();
});

/** A request with the body as raw text: JSON.stringify would write a lone surrogate as an escape anyway, but explicit. */
async function raw(method: string, path: string, body?: string) {
  const res = await fetch(`${c.server.url}/api/v1${path}`, {
    method,
    headers: { authorization: ownerBasic, "content-type": "application/json", "x-brynth-project": c.seeded.project.id },
    body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: checked field by field
  return { status: res.status, body: (await res.json()) as any };
}

describe("owner REST: text PostgreSQL cannot store", () => {
  it("refuses a NUL or a lone surrogate in a project's name by field, and creates or renames nothing", async () => {
    const before = (await c.call("GET", "/projects")).body.projects;
    for (const name of ['"a\\u0000b"', '"a\\ud800b"', '"\\udfff"']) {
      const made = await raw("POST", "/projects", `{"name":${name}}`);
      expect(made.status).toBe(400);
      expect(namesFields(made.body, ["name"])).toBe(true);
      const renamed = await raw("PATCH", `/projects/${c.seeded.project.id}`, `{"name":${name}}`);
      expect(renamed.status).toBe(400);
      expect(namesFields(renamed.body, ["name"])).toBe(true);
    }
    expect((await c.call("GET", "/projects")).body.projects).toEqual(before);
    expect(await c.entry("project.rename")).toBeUndefined();
    expect(faults.take()).toEqual([]);
  });

  it("refuses a NUL in an id of the path by field (DELETE /keys/%00), and revokes nothing", async () => {
    const res = await c.call("DELETE", "/keys/a%00b");
    expect(res.status).toBe(400);
    expect(namesFields(res.body, ["key_id"])).toBe(true);
    expect(await c.entry("key.revoke")).toBeUndefined();
    expect((await c.call("GET", "/keys")).body.keys.every((k: { revoked_at: string | null }) => k.revoked_at === null)).toBe(true);
    expect(faults.take()).toEqual([]);
  });
});

describe("owner REST: times timestamptz cannot hold", () => {
  it("refuses a delivery-log window outside years 1–9999 by field", async () => {
    for (const field of ["since", "until"]) {
      for (const time of ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59-14:00"]) {
        const res = await c.call("GET", `/owner/webhook-attempts?${field}=${encodeURIComponent(time)}`);
        expect(res.status).toBe(400);
        expect(namesFields(res.body, [field])).toBe(true);
      }
    }
    // The ends of the range are still times the log can be read between.
    const all = await c.call("GET", `/owner/webhook-attempts?since=0001-01-01T00:00:00Z&until=${encodeURIComponent("9999-12-31T23:59:59Z")}`);
    expect(all.status).toBe(200);
    expect(faults.take()).toEqual([]);
  });

  it("refuses a __proto__ key inside a record by name, as the agent's tool does, instead of saving the rest without it", async () => {
    const key = `Bearer ${c.seeded.secret}`;
    const made = await fetch(`${c.server.url}/api/v1/webhooks`, {
      method: "POST",
      headers: { authorization: key, "content-type": "application/json" },
      body: '{"url":"https://example.org/hook","event_types":["message.received"]}',
    });
    const id = ((await made.json()) as { webhook_id: string }).webhook_id;
    for (const headers of ['{"__proto__":"v","x-a":"b"}', '{"__proto__":{"x-b":"c"}}']) {
      const res = await raw("PATCH", `/owner/webhooks/${id}/headers`, `{"headers":${headers}}`);
      expect(res.status, headers).toBe(400);
      expect(namesFields(res.body, ["headers.__proto__"])).toBe(true);
    }
    expect((await c.call("GET", `/owner/webhooks/${id}/headers`)).body.headers).toEqual({});
  });
});
