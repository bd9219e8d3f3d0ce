import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { sign as signGithub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { rawPost } from "@/lib/http/intake/raw-post";
import { getDb } from "@/lib/db/client";
import { removeSource } from "@/lib/sources/remove-source";
import { listRefusals } from "@/lib/sources/intake-refusals";
import { envSettings } from "@/lib/testing/env-settings";
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

const post = (url: string, body: string | Uint8Array, headers: Record<string, string> | Headers = {}) =>
  fetch(url, { method: "POST", body: body as BodyInit, headers: headers instanceof Headers ? headers : { "content-type": "application/json", ...headers } });

describe("stripe source", () => {
  const secret = "whsec_stripe_test_secret";
  let url: string;
  beforeAll(async () => {
    url = (await seedSource(actor, { name: "stripe", verification: "stripe", secret })).url!;
  });

  it("stores a verified event as pending, untrusted, typed from the payload, and answers after commit", async () => {
    const payload = JSON.stringify({ id: "evt_stripe_1", type: "invoice.paid", data: { object: { amount: 1200 } } });
    const res = await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) });
    expect(res.status).toBe(200);
    const { event_id, duplicate } = await res.json();
    expect(duplicate).toBe(false);
    const [event] = await eventsOf(actor, { source: "stripe" });
    expect(event).toMatchObject({ id: event_id, source: "stripe", type: "invoice.paid", status: "pending", trust: "external_untrusted" });
    expect(JSON.parse(event.payloadText!)).toEqual(JSON.parse(payload));
    expect(event.payloadText).toBe(payload); // the exact bytes, not re-serialised
    expect(event.headers["content-type"]).toBe("application/json");
    expect(event.headers["stripe-signature"]).toBeUndefined();
  });

  it("does not create a second event for a provider retry of the same Stripe event", async () => {
    const payload = JSON.stringify({ id: "evt_retry", type: "charge.succeeded" });
    const first = await (await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) })).json();
    const retry = await post(url, payload, {
      "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) + 5 }),
    });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, event_id: first.event_id, duplicate: true });
    expect((await eventsOf(actor, { type: "charge.succeeded" })).length).toBe(1);
  });

  it("stores each of a burst of concurrent deliveries once, with retries inside the burst answered as duplicates", async () => {
    // Sent together, these share INSERTs (insert-event.ts): a retry may even land in the same statement as its first.
    const payloads = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: `evt_burst_${i}`, type: "burst.test", data: { i } }));
    const send = async (payload: string) => {
      const r = await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) });
      return { status: r.status, ...(await r.json()) };
    };
    const answers = await Promise.all(payloads.flatMap((payload) => [send(payload), send(payload)]));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const stored = await eventsOf(actor, { type: "burst.test" });
    expect(stored).toHaveLength(30);
    for (let i = 0; i < 30; i++) {
      const [a, b] = [answers[2 * i], answers[2 * i + 1]];
      expect(a.event_id).toBe(b.event_id);
      expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
      expect(JSON.parse(stored.find((e) => e.id === a.event_id)!.payloadText!).data.i).toBe(i);
    }
  });

  it("stores a delivery whose type or id holds NUL characters, without them", async () => {
    const payload = JSON.stringify({ id: "evt_nul\u0000_1", type: "nul\u0000.type" });
    const res = await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) });
    expect(res.status).toBe(200);
    const { event_id } = await res.json();
    const [event] = await eventsOf(actor, { type: "nul.type" });
    expect(event.id).toBe(event_id);
    expect(event.payloadText).toBe(payload);
    // Its id, stored without the NUL, still recognises a retry.
    const retry = await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret }) });
    expect(await retry.json()).toMatchObject({ event_id, duplicate: true });
  });

  it("refuses a wrong, missing, malformed, stale or duplicated signature with 401 and stores nothing", async () => {
    const payload = JSON.stringify({ id: "evt_bad", type: "bad.signature" });
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const cases: Record<string, string>[] = [
      {},
      { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" }) },
      { "stripe-signature": "t=nonsense" },
      { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 360 }) },
      { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) + 360 }) },
    ];
    for (const headers of cases) {
      const res = await post(url, payload, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
    const dup = await rawPost(url, payload, { "content-type": "application/json", "stripe-signature": [good, good] });
    expect(dup.status).toBe(401);
    const tampered = await post(url, payload.replace("bad.signature", "evil"), { "stripe-signature": good });
    expect(tampered.status).toBe(401);
    expect(await eventsOf(actor, { type: "bad.*" })).toEqual([]);
    expect(await eventsOf(actor, { type: "evil" })).toEqual([]);
  });
});

describe("github source", () => {
  const secret = "github-webhook-secret";
  let url: string;
  beforeAll(async () => {
    url = (await seedSource(actor, { name: "github", verification: "github", secret })).url!;
  });

  it("types events as X-GitHub-Event plus action and answers a redelivery with the first event", async () => {
    const payload = JSON.stringify({ action: "opened", number: 7 });
    const delivery = randomUUID();
    const headers = { "x-github-event": "pull_request", "x-github-delivery": delivery, "x-hub-signature-256": await signGithub(secret, payload) };
    const first = await post(url, payload, headers);
    expect(first.status).toBe(200);
    const again = await (await post(url, payload, headers)).json();
    expect(again.duplicate).toBe(true);
    const events = await eventsOf(actor, { source: "github" });
    expect(events.map((e) => e.type)).toEqual(["pull_request.opened"]);
    expect(events[0].headers).toMatchObject({ "x-github-event": "pull_request", "x-github-delivery": delivery });
  });

  it("answers a captured delivery replayed under a new X-GitHub-Delivery with the first event, not a second", async () => {
    // GitHub signs the body only: the delivery id can be changed freely by whoever resends the request.
    const payload = JSON.stringify({ action: "deleted", ref: "v1.0.0" });
    const signature = await signGithub(secret, payload);
    const send = (delivery: string) => post(url, payload, { "x-github-event": "release", "x-github-delivery": delivery, "x-hub-signature-256": signature });
    const first = await (await send(randomUUID())).json();
    const replay = await send(randomUUID());
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, event_id: first.event_id, duplicate: true });
    expect(await eventsOf(actor, { type: "release.deleted" })).toHaveLength(1);
    // A different event (another body) is stored as its own, under any delivery id.
    const other = JSON.stringify({ action: "deleted", ref: "v1.0.1" });
    const res = await post(url, other, {
      "x-github-event": "release",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await signGithub(secret, other),
    });
    expect((await res.json()).duplicate).toBe(false);
    expect(await eventsOf(actor, { type: "release.deleted" })).toHaveLength(2);
  });

  it("reads GitHub's form-encoded deliveries as JSON", async () => {
    const json = JSON.stringify({ zen: "Keep it logically awesome." });
    const form = `payload=${encodeURIComponent(json)}`;
    const res = await post(url, form, {
      "content-type": "application/x-www-form-urlencoded",
      "x-github-event": "ping",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await signGithub(secret, form),
    });
    expect(res.status).toBe(200);
    const [event] = await eventsOf(actor, { source: "github", type: "ping" });
    expect(JSON.parse(event.payloadText!)).toEqual({ zen: "Keep it logically awesome." });
  });

  it("refuses duplicated signature headers", async () => {
    const payload = JSON.stringify({ action: "closed" });
    const sig = await signGithub(secret, payload);
    const res = await rawPost(url, payload, { "x-github-event": "issues", "x-hub-signature-256": [sig, sig] });
    expect(res.status).toBe(401);
    expect(await eventsOf(actor, { type: "issues*" })).toEqual([]);
  });

  it("refuses a duplicated delivery id header with 400", async () => {
    const payload = JSON.stringify({ action: "edited" });
    const res = await rawPost(url, payload, {
      "x-github-event": "label",
      "x-github-delivery": [randomUUID(), randomUUID()],
      "x-hub-signature-256": await signGithub(secret, payload),
    });
    expect(res.status).toBe(400);
    expect(await eventsOf(actor, { type: "label*" })).toEqual([]);
  });
});

describe("hmac_sha256 and standard_webhooks sources", () => {
  it("verifies hex or base64 in the configured header and dedupes on a configured id header", async () => {
    const secret = "acme-shared-secret";
    const { url } = await seedSource(actor, {
      name: "acme",
      verification: "hmac_sha256",
      secret,
      signature_header: "X-Acme-Signature",
      id_header: "x-acme-id",
    });
    const payload = JSON.stringify({ type: "order.created", id: 1 });
    const mac = createHmac("sha256", secret).update(payload).digest();
    expect((await post(url!, payload, { "x-acme-signature": mac.toString("hex"), "x-acme-id": "d1" })).status).toBe(200);
    expect((await post(url!, payload, { "x-acme-signature": mac.toString("base64"), "x-acme-id": "d1" })).status).toBe(200);
    expect((await post(url!, payload, { "x-signature": mac.toString("hex"), "x-acme-id": "d2" })).status).toBe(401);
    const events = await eventsOf(actor, { source: "acme" });
    expect(events.map((e) => [e.type, e.headers["x-acme-id"]])).toEqual([["order.created", "d1"]]);
  });

  it("answers a captured hmac_sha256 delivery replayed under a new id with the first event, not a second", async () => {
    // The HMAC covers the body only: the id header, or its absence, is the resender's to choose.
    const secret = "replayed-secret";
    const { url } = await seedSource(actor, { name: "replayed", verification: "hmac_sha256", secret, id_header: "x-acme-id" });
    const payload = JSON.stringify({ type: "refund.issued", id: "re_1", amount: 500 });
    const signature = createHmac("sha256", secret).update(payload).digest("hex");
    const first = await (await post(url!, payload, { "x-signature": signature, "x-acme-id": "d1" })).json();
    for (const id of [{ "x-acme-id": "d2" }, {}] as Record<string, string>[]) {
      const replay = await post(url!, payload, { "x-signature": signature, ...id });
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ received: true, event_id: first.event_id, duplicate: true });
    }
    // Another body is its own event.
    const other = JSON.stringify({ type: "refund.issued", id: "re_2", amount: 500 });
    const res = await post(url!, other, { "x-signature": createHmac("sha256", secret).update(other).digest("hex"), "x-acme-id": "d3" });
    expect((await res.json()).duplicate).toBe(false);
    expect(await eventsOf(actor, { source: "replayed" })).toHaveLength(2);
  });

  it("verifies Standard Webhooks signed by the standardwebhooks package and dedupes on webhook-id", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const { url } = await seedSource(actor, { name: "svix", verification: "standard_webhooks", secret });
    const payload = JSON.stringify({ type: "user.created", timestamp: new Date().toISOString(), data: { id: "u1" } });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", at, payload),
    };
    expect((await post(url!, payload, headers)).status).toBe(200);
    expect((await (await post(url!, payload, headers)).json()).duplicate).toBe(true);
    const old = new Date(Date.now() - 600_000);
    const stale = {
      ...headers,
      "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", old, payload),
    };
    expect((await post(url!, payload, stale)).status).toBe(401);
    expect((await eventsOf(actor, { source: "svix" })).map((e) => e.type)).toEqual(["user.created"]);
  });
});

describe("bodies", () => {
  let url: string;
  beforeAll(async () => {
    url = (await seedSource(actor, { name: "open", verification: "none" })).url!;
  });

  it("stores non-JSON bodies raw with their content type instead of rejecting them", async () => {
    expect((await post(url, "a=1&b=2", { "content-type": "application/x-www-form-urlencoded" })).status).toBe(200);
    expect((await post(url, "{not json", { "content-type": "application/json" })).status).toBe(200);
    const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x01]);
    expect((await post(url, bytes, { "content-type": "application/octet-stream" })).status).toBe(200);
    const events = await eventsOf(actor, { source: "open" });
    expect(events.map((e) => [e.type, e.contentType, e.isJson])).toEqual([
      ["webhook", "application/x-www-form-urlencoded", false],
      ["webhook", "application/json", false],
      ["webhook", "application/octet-stream", false],
    ]);
    expect(Buffer.from(events[0].raw!).toString()).toBe("a=1&b=2");
    expect([...events[2].raw!]).toEqual([...bytes]);
  });

  it("refuses bodies over the limit with 413 before parsing, announced or streamed, and stores nothing", async () => {
    const big = "x".repeat(5 * 1024 * 1024 + 1);
    const before = (await eventsOf(actor, { source: "open" })).length;
    const announced = await post(url, big, { "content-type": "text/plain" });
    expect(announced.status).toBe(413);
    expect((await announced.json()).error.code).toBe("payload_too_large");
    const chunks = new ReadableStream({
      start(c) {
        for (let i = 0; i < 6; i++) c.enqueue(new TextEncoder().encode("y".repeat(1024 * 1024)));
        c.close();
      },
    });
    const streamed = await fetch(url, { method: "POST", body: chunks, headers: { "content-type": "text/plain" }, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await eventsOf(actor, { source: "open" })).length).toBe(before);
  });
});

describe("unknown URLs", () => {
  it("answers 404 identically for a random token, a malformed one and a removed source", async () => {
    const { url } = await seedSource(actor, { name: "gone", verification: "none" });
    expect((await post(url!, "{}")).status).toBe(200);
    const db = await getDb();
    await db.transaction((tx) => removeSource(tx, { actor, name: "gone" }));
    const base = url!.slice(0, url!.lastIndexOf("/") + 1);
    const answers = await Promise.all(
      [url!, `${base}${"A".repeat(43)}`, `${base}short`].map(async (u) => {
        const res = await post(u, "{}");
        return [res.status, await res.text()];
      }),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0][0]).toBe(404);
    // Events received before the removal stay.
    expect((await eventsOf(actor, { source: "gone" })).length).toBe(1);
  });

  it("stores a delivery to a source added again under a removed one's name, though the removed one had its id", async () => {
    const db = await getDb();
    const add = async () => (await seedSource(actor, { name: "readded", verification: "none", id_header: "x-delivery" })).url!;
    const first = await (await post(await add(), JSON.stringify({ type: "before" }), { "x-delivery": "d-1" })).json();
    await db.transaction((tx) => removeSource(tx, { actor, name: "readded" }));
    const again = await post(await add(), JSON.stringify({ type: "after" }), { "x-delivery": "d-1" });
    // Before: 200 duplicate, answered with the removed source's event, and nothing stored (the sender would not retry).
    const answer = await again.json();
    expect(answer).toMatchObject({ received: true, duplicate: false });
    expect(answer.event_id).not.toBe(first.event_id);
    expect((await eventsOf(actor, { source: "readded" })).map((e) => e.type).sort()).toEqual(["after", "before"]);
  });

  it("answers GET with 405 whatever the token", async () => {
    const res = await fetch(`${server.url}/hooks/${"B".repeat(43)}`);
    expect(res.status).toBe(405);
  });
});

describe("delivery rate per source", () => {
  const rateEnv = envSettings("SOURCE_DELIVERIES_PER_MINUTE");
  afterAll(() => rateEnv.restore());

  it("answers deliveries over SOURCE_DELIVERIES_PER_MINUTE with 429 and Retry-After, stores none of them, and counts them once as refused", async () => {
    rateEnv.set({ SOURCE_DELIVERIES_PER_MINUTE: "3" });
    const { url } = await seedSource(actor, { name: "leaky", verification: "none" });
    const other = await seedSource(actor, { name: "busy-neighbour", verification: "none" });
    const since = new Date();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(url!, JSON.stringify({ id: `d${i}`, type: "ping" })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(Number(answers[3].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await answers[3].json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("limit is 3 a minute") });
    expect((await eventsOf(actor, { source: "leaky" })).length).toBe(3);
    // Each source has its own bucket.
    expect((await post(other.url!, JSON.stringify({ type: "ping" }))).status).toBe(200);
    // The three refusals are counted together (a flood costs no write per request), under their own reason.
    const db = await getDb();
    await expect
      .poll(async () => (await listRefusals(db, { projectId: actor.projectId, since, reason: "rate_limited" })).map((r) => [r.source, r.count]), {
        timeout: 10_000,
      })
      .toEqual([["leaky", 3]]);
  });
});
