import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { randomBytes } from "node:crypto";
import { rawPost as postRaw } from "@/lib/http/intake/raw-post";
import { startApiServer } from "@/lib/testing/api-server";
import { eventsOf, seedSource } from "@/lib/testing/events";
import { seedProject } from "@/lib/testing/seed";

const stripe = new Stripe("sk_test_unused");
let server: Awaited<ReturnType<typeof startApiServer>>;
let actor: Awaited<ReturnType<typeof seedProject>>["actor"];

beforeAll(async () => {
  server = await startApiServer();
  actor = (await seedProject()).actor;
});
afterAll(() => server.close());

/** A raw POST (raw-post.ts) of a JSON body unless the headers say otherwise. */
const rawPost = (url: string, body: string, headers: Record<string, string | string[]>) =>
  postRaw(url, body, { "content-type": "application/json", ...headers });

describe("hostile signature headers", () => {
  it("refuses forged, stale, oversized and malformed Stripe signatures with 401 and stores nothing", async () => {
    const secret = "whsec_hostile_stripe";
    const { url } = await seedSource(actor, { name: "stripe-h", verification: "stripe", secret });
    const payload = JSON.stringify({ id: "evt_hostile", type: "hostile.stripe" });
    const now = Math.floor(Date.now() / 1000);
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: now });
    const v1 = good.split(",")[1];
    const signedAt = (t: string) => `t=${t},v1=${stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Number(t) }).split("v1=")[1]}`;
    for (const value of [
      `t=${now},${v1},t=${now}`, // two timestamps
      `t=${now},v1=${"0".repeat(63)}`, // short signature
      `t=${now},v1=${"0".repeat(66)}`, // long signature
      `t=${now},${Array.from({ length: 200 }, () => `v1=${"a".repeat(64)}`).join(",")}`, // many wrong v1 values
      `t=${now},v1=${"\u00e9".repeat(64)}`, // non-ASCII bytes
      signedAt("99999999999"), // far future, correctly signed
      signedAt("1"), // far past, correctly signed
      `t=${now}x,${v1}`, // non-numeric
      `t=-${now},${v1}`,
      `t=${now}.5,${v1}`,
      `${good},`, // trailing separator
      "x".repeat(8000),
    ]) {
      const res = await rawPost(url!, payload, { "stripe-signature": value });
      expect(res.status, value.slice(0, 80)).toBe(401);
      expect(JSON.parse(res.body).error.code).toBe("unauthorized");
    }
    expect(await eventsOf(actor, { source: "stripe-h" })).toEqual([]);
    expect((await rawPost(url!, payload, { "stripe-signature": good })).status).toBe(200);
  });

  it("refuses Standard Webhooks replays under a new id, duplicated ids and odd timestamps", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const { url } = await seedSource(actor, { name: "svix-h", verification: "standard_webhooks", secret });
    const payload = JSON.stringify({ type: "hostile.svix" });
    const at = new Date();
    const stamp = String(Math.floor(at.getTime() / 1000));
    const headers = { "webhook-id": "msg_h1", "webhook-timestamp": stamp, "webhook-signature": new Webhook(secret).sign("msg_h1", at, payload) };
    expect((await rawPost(url!, payload, headers)).status).toBe(200);
    // A captured delivery sent again under a fresh id: the id is signed, so the signature no longer matches.
    expect((await rawPost(url!, payload, { ...headers, "webhook-id": "msg_h2" })).status).toBe(401);
    expect((await rawPost(url!, payload, { ...headers, "webhook-id": ["msg_h1", "msg_h1"] })).status).toBe(401);
    for (const t of [`${stamp}.0`, `+${stamp}`, ` ${stamp}0`, "1e10", "NaN"]) {
      expect((await rawPost(url!, payload, { ...headers, "webhook-timestamp": t })).status, t).toBe(401);
    }
    // The same delivery again is a duplicate of the first event, not a second one.
    expect(JSON.parse((await rawPost(url!, payload, headers)).body)).toMatchObject({ duplicate: true });
    expect(await eventsOf(actor, { source: "svix-h" })).toHaveLength(1);
  });
});

describe("hostile bodies", () => {
  it("stores JSON with NUL escapes, lone surrogates, duplicate keys or a BOM, and refuses deep nesting by name", async () => {
    const { url } = await seedSource(actor, { name: "open-h", verification: "none" });
    const bodies = [
      '{"type":"h.nul","v":"\\u0000"}',
      '{"type":"h.lone","v":"\\ud800"}',
      '{"type":"h.first","type":"h.dup"}',
      '\uFEFF{"type":"h.bom"}',
      '{"type":"\\udc00"}',
      '{"type":"h.big","n":1e999}',
    ];
    for (const body of bodies) expect((await rawPost(url!, body, {})).status, body).toBe(200);
    const deep = await rawPost(url!, `${"[".repeat(101)}${"]".repeat(101)}`, {});
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body).error).toMatchObject({ code: "validation_error", message: expect.stringMatching(/nested more than 100 levels/) });
    const stored = await eventsOf(actor, { source: "open-h" });
    expect(stored.map((e) => e.type)).toEqual(["h.nul", "h.lone", "h.dup", "h.bom", "\uFFFD", "h.big"]);
    expect(stored[0].payloadText).toBe(bodies[0]);
  });
});
