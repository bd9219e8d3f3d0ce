import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { JSON_MAX_DEPTH } from "@/lib/json/json-depth";
import { startApiServer } from "@/lib/testing/api-server";
import { eventsOf, seedSource } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

let server: Awaited<ReturnType<typeof startApiServer>>;
let actor: Awaited<ReturnType<typeof seedProject>>["actor"];

beforeAll(async () => {
  server = await startApiServer();
  actor = (await seedProject({ name: "deep-hooks" })).actor;
});
afterAll(() => server.close());

/** `{"type":"deep.json","data":[[[…1…]]]}`, the array part `depth` levels deep (the object adds one). */
const deep = (depth: number) => `{"type":"deep.json","data":${"[".repeat(depth - 1)}1${"]".repeat(depth - 1)}}`;
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

describe("webhook intake: JSON nesting depth", () => {
  it("refuses a delivery nested 5,000 deep with 400 validation_error naming the limit, and stores nothing", async () => {
    const { url } = await seedSource(actor, { name: "deep-open", verification: "none" });
    const res = await post(url!, deep(5000));
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe("validation_error");
    expect(error.message).toContain(`${JSON_MAX_DEPTH} levels`);
    expect(await eventsOf(actor, { source: "deep-open" })).toEqual([]);
  });

  it("checks the JSON inside GitHub's form-encoded payload too, after the signature", async () => {
    const secret = "deep-github-secret";
    const { url } = await seedSource(actor, { name: "deep-github", verification: "github", secret });
    const form = new URLSearchParams({ payload: deep(5000) }).toString();
    const sig = `sha256=${createHmac("sha256", secret).update(form).digest("hex")}`;
    const headers = { "content-type": "application/x-www-form-urlencoded", "x-github-event": "push", "x-hub-signature-256": sig };
    const res = await post(url!, form, headers);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("validation_error");
    // Unsigned, it is the signature that fails, first.
    expect((await post(url!, form, { ...headers, "x-hub-signature-256": "sha256=00" })).status).toBe(401);
    expect(await eventsOf(actor, { source: "deep-github" })).toEqual([]);
  });

  it("stores a delivery exactly as deep as the limit, and brackets inside strings do not count", async () => {
    const { url } = await seedSource(actor, { name: "deep-edge", verification: "none" });
    expect((await post(url!, deep(JSON_MAX_DEPTH))).status).toBe(200);
    expect((await post(url!, JSON.stringify({ type: "brackets", s: "[".repeat(5000) }))).status).toBe(200);
    const stored = await eventsOf(actor, { source: "deep-edge" });
    expect(stored.map((e) => [e.type, e.isJson])).toEqual([
      ["deep.json", true],
      ["brackets", true],
    ]);
  });
});
