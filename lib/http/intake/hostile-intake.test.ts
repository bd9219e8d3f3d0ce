import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { createHmac, randomBytes } from "node:crypto";
import { rawPost as postRaw } from "@/lib/http/intake/raw-post";
import { getDb } from "@/lib/db/client";
import { insertEvent } from "@/lib/events/insert-event";
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

  it("knows a replay by what was signed, never by an id_header the sender does not sign", async () => {
    // Before: with an id_header, a captured Stripe or Standard Webhooks delivery sent again under a new header value
    // (within the timestamp's 5 minutes) was a second event, and so was a Stripe body without an id sent twice.
    const secret = "whsec_replayed_stripe";
    const stripeHook = (await seedSource(actor, { name: "stripe-idh", verification: "stripe", secret, id_header: "x-delivery-id" })).url!;
    const payload = JSON.stringify({ id: "evt_same", type: "replayed.stripe" });
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const first = JSON.parse((await rawPost(stripeHook, payload, { "stripe-signature": signature, "x-delivery-id": "one" })).body);
    const again = JSON.parse((await rawPost(stripeHook, payload, { "stripe-signature": signature, "x-delivery-id": "two" })).body);
    expect([first.duplicate, again]).toEqual([false, { received: true, event_id: first.event_id, duplicate: true }]);
    expect(await eventsOf(actor, { source: "stripe-idh" })).toHaveLength(1);

    const noId = JSON.stringify({ type: "no.id" });
    const noIdSignature = stripe.webhooks.generateTestHeaderString({ payload: noId, secret });
    for (let i = 0; i < 2; i++) expect((await rawPost(stripeHook, noId, { "stripe-signature": noIdSignature, "x-delivery-id": `n${i}` })).status).toBe(200);
    expect((await eventsOf(actor, { source: "stripe-idh" })).filter((e) => e.type === "no.id")).toHaveLength(1);

    const svixSecret = `whsec_${randomBytes(24).toString("base64")}`;
    const svixHook = (await seedSource(actor, { name: "svix-idh", verification: "standard_webhooks", secret: svixSecret, id_header: "x-delivery-id" })).url!;
    const at = new Date();
    const signed = {
      "webhook-id": "msg_once",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(svixSecret).sign("msg_once", at, payload),
    };
    for (const id of ["one", "two"]) expect((await rawPost(svixHook, payload, { ...signed, "x-delivery-id": id })).status).toBe(200);
    expect(await eventsOf(actor, { source: "svix-idh" })).toHaveLength(1);
  });
});

describe("a retry of a delivery an earlier build stored", () => {
  // Builds before e76f25b keyed GitHub and id_header sources on the delivery id header; a provider's retry after an
  // upgrade (GitHub's Redeliver, a lost answer) was stored a second time under the signed body's key.
  it("finds the event stored under its delivery id header, for GitHub and an HMAC source with an id_header", async () => {
    const secret = "earlier_build_secret";
    const cases = [
      { name: "gh-earlier", verification: "github" as const, idHeader: undefined, header: "x-github-delivery", sign: "x-hub-signature-256" },
      { name: "hmac-earlier", verification: "hmac_sha256" as const, idHeader: "x-delivery-id", header: "x-delivery-id", sign: "x-signature" },
    ];
    for (const c of cases) {
      const source = await seedSource(actor, { name: c.name, verification: c.verification, secret, ...(c.idHeader ? { id_header: c.idHeader } : {}) });
      const body = JSON.stringify({ type: "order.paid", order: 7 });
      const stored = await insertEvent(await getDb(), {
        projectId: actor.projectId,
        sourceId: source.id,
        source: c.name,
        type: "order.paid",
        trust: "external_untrusted",
        body: { json: body },
        contentType: "application/json",
        payloadSize: body.length,
        headers: {},
        dedupeKey: "delivery-7",
      });
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      const retry = await rawPost(source.url!, body, { [c.sign]: signature, [c.header]: "delivery-7", "x-github-event": "order" });
      expect(retry.status, c.name).toBe(200);
      expect(JSON.parse(retry.body)).toMatchObject({ event_id: stored.id, duplicate: true });
      // A new delivery (another id) is a new event, keyed as this build keys it.
      const next = await rawPost(source.url!, body.replace("7", "8"), {
        [c.sign]: `sha256=${createHmac("sha256", secret).update(body.replace("7", "8")).digest("hex")}`,
        [c.header]: "delivery-8",
        "x-github-event": "order",
      });
      expect(JSON.parse(next.body)).toMatchObject({ duplicate: false });
      expect(await eventsOf(actor, { source: c.name })).toHaveLength(2);
    }
  });
});

describe("hostile bodies", () => {
  it("cuts a GitHub event's type (its header and the body's action) on a whole character", async () => {
    const secret = "gh_secret_12345";
    const hook = (await seedSource(actor, { name: "gh-type", verification: "github", secret })).url!;
    const body = JSON.stringify({ action: "\u{1F600}x" });
    const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    expect((await rawPost(hook, body, { "x-hub-signature-256": signature, "x-github-event": "a".repeat(198), "x-github-delivery": "d1" })).status).toBe(200);
    const [event] = await eventsOf(actor, { source: "gh-type" });
    // Before: 198 + "." + the emoji's first half, stored as U+FFFD.
    expect(event.type).toBe(`${"a".repeat(198)}.`);
  });

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
