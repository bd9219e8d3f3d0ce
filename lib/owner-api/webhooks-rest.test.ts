import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { textDigest } from "@/lib/ledger/canonical";
import { startApiServer } from "@/lib/testing/api-server";
import { lastLedgerEntry } from "@/lib/testing/ledger";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";

/**
 * The owner's webhooks over REST (HTTP Basic), against a real receiver on 127.0.0.1 that checks every delivery's
 * Standard Webhooks signature with the `standardwebhooks` package: create, list (agents' included), edit, enable and
 * disable, headers, rotation with two signatures, test events, the delivery log and resend, and the bad input.
 */
type Received = { headers: IncomingHttpHeaders; body: string };
let server: Awaited<ReturnType<typeof startApiServer>>;
let receiver: Server;
let hookUrl: string;
let answer = 200;
const received: Received[] = [];
let seeded: Awaited<ReturnType<typeof seedProject>>;
const basic = `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: basic, "content-type": "application/json", "x-brynth-project": seeded.project.id },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer, { "content-type": "text/plain" });
      res.end(answer < 300 ? "thanks" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  hookUrl = `http://127.0.0.1:${port}/hook`;
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
  server = await startApiServer();
  seeded = await seedProject({ name: "Webhooks" });
});
afterAll(async () => {
  await server.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  resetEnvCache();
});

const verifies = (secret: string, r: Received) => {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe("owner webhooks over REST", () => {
  it("creates a webhook with its secret once, and lists it beside an agent's, whose key is named", async () => {
    const created = await call("POST", "/owner/webhooks", { url: hookUrl, event_types: ["message.received", "message.sent"] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(created.body).toMatchObject({ url: hookUrl, enabled: true, inbox_ids: [], created_by: { type: "owner", key_id: null } });

    // The agent's own, through its tool's REST route with its API key.
    const made = await fetch(`${server.url}/api/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://hooks.example.com/agent", event_types: ["message.sent"] }),
    });
    expect(made.ok).toBe(true);
    const agents = { webhook: { id: ((await made.json()) as { webhook_id: string }).webhook_id } };

    const list = await call("GET", "/owner/webhooks");
    expect(list.status).toBe(200);
    const ids = list.body.webhooks.map((w: { id: string }) => w.id);
    expect(ids).toEqual(expect.arrayContaining([created.body.id, agents.webhook.id]));
    const agentView = list.body.webhooks.find((w: { id: string }) => w.id === agents.webhook.id);
    expect(agentView.created_by).toEqual({ type: "key", key_id: seeded.key.id, key_name: seeded.key.name });
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

    const one = await call("GET", `/owner/webhooks/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
  });

  it("refuses bad input naming the field, and unknown webhooks with 404", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: "http://example.com/hook", event_types: ["message.sent"] }, /^url: /],
      [{ url: "https://127.0.0.1/hook", event_types: ["message.sent"] }, /^url: /],
      [{ url: "https://user:pw@example.com/hook", event_types: ["message.sent"] }, /^url: /],
      [{ url: "https://example.com:6379/", event_types: ["message.sent"] }, /^url: .*6379/],
      [{ url: "https://example.com/hook", event_types: [] }, /^event_types: /],
      [{ url: "https://example.com/hook", event_types: ["message.recieved"] }, /^event_types\.0: /],
      [{ url: "https://example.com/hook", event_types: ["message.sent"], inbox_ids: Array.from({ length: 11 }, (_, i) => `mbx_${i}`) }, /^inbox_ids: /],
      [{ url: "https://example.com/hook", event_types: ["message.sent"], inbox_ids: ["mbx_nope"] }, /inbox_ids\.0: /],
      [{ url: "https://example.com/hook", eventTypes: ["message.sent"] }, /eventTypes/],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", "/owner/webhooks", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.message).toMatch(field);
    }
    const missing = "whk_doesnotexist";
    for (const [method, path, body] of [
      ["GET", `/owner/webhooks/${missing}`],
      ["PATCH", `/owner/webhooks/${missing}`, { enabled: false }],
      ["DELETE", `/owner/webhooks/${missing}`],
      ["POST", `/owner/webhooks/${missing}/rotate-secret`],
      ["POST", `/owner/webhooks/${missing}/test`],
      ["GET", `/owner/webhooks/${missing}/headers`],
      ["PATCH", `/owner/webhooks/${missing}/headers`, { headers: { "X-Token": "t" } }],
      ["GET", `/owner/webhook-attempts?webhook_id=${missing}`],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    const badId = await call("GET", "/owner/webhooks/not-an-id");
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toMatch(/webhook_id/);
    const badOutcome = await call("GET", "/owner/webhook-attempts?outcome=maybe");
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.error.message).toMatch(/^outcome: /);
    const withKey = await fetch(`${server.url}/api/v1/owner/webhooks`, { headers: { authorization: `Bearer ${seeded.secret}` } });
    expect(withKey.status).toBe(401);
  });

  it("edits, disables with a reason and enables again; headers are set, refused when reserved, and removed", async () => {
    const { body: hook } = await call("POST", "/owner/webhooks", { url: "https://hooks.example.com/a", event_types: ["message.sent"] });
    const edited = await call("PATCH", `/owner/webhooks/${hook.id}`, {
      url: "https://hooks.example.com/b",
      event_types: ["message.bounced", "message.delivered"],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ url: "https://hooks.example.com/b", event_types: ["message.bounced", "message.delivered"] });
    const badUrl = await call("PATCH", `/owner/webhooks/${hook.id}`, { url: "https://169.254.169.254/latest" });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.message).toMatch(/^url: /);

    const off = await call("PATCH", `/owner/webhooks/${hook.id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: "disabled by the owner" });
    const on = await call("PATCH", `/owner/webhooks/${hook.id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });

    const set = await call("PATCH", `/owner/webhooks/${hook.id}/headers`, { headers: { Authorization: "Bearer abc", "X-Team": "mail" } });
    expect(set.status).toBe(200);
    expect(set.body.headers).toEqual({ Authorization: "Bearer abc", "X-Team": "mail" });
    // The entry digests the header names, never the values, going in or coming back (a weak value could be guessed
    // offline from its digest by anyone who reads the ledger). Before, the output digest was of every value.
    const entry = await lastLedgerEntry(seeded.project.id, "update.webhook_headers");
    expect(entry.outputDigest).toBe(textDigest(JSON.stringify({ webhook_id: hook.id, header_names: ["Authorization", "X-Team"] })));
    for (const [headers, field] of [
      [{ Host: "evil.example" }, /^headers\.Host: /],
      [{ "webhook-signature": "x" }, /^headers\.webhook-signature: /],
      [{ "X-Bad": "a\r\nInjected: 1" }, /^headers\.X-Bad: /],
      [{ "X-Big": "x".repeat(2048) }, /^headers\.X-Big: /],
      // Nine values of 1,000 bytes: each fits, together over the 8 KB a delivery may carry; named by the largest given.
      [
        { ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`X-K${i}`, "k".repeat(990)])), "X-Largest": "k".repeat(1000) },
        /^headers\.X-Largest: .*8192 bytes/,
      ],
    ] as const) {
      const res = await call("PATCH", `/owner/webhooks/${hook.id}/headers`, { headers });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(field);
    }
    const removed = await call("PATCH", `/owner/webhooks/${hook.id}/headers`, { remove_headers: ["x-team", "absent"] });
    expect(removed.body.headers).toEqual({ Authorization: "Bearer abc" });
    const view = await call("GET", `/owner/webhooks/${hook.id}`);
    expect(view.body.header_names).toEqual(["Authorization"]);
    expect(JSON.stringify(view.body)).not.toContain("Bearer abc");

    const del = await call("DELETE", `/owner/webhooks/${hook.id}`);
    expect(del.status).toBe(200);
    expect((await call("DELETE", `/owner/webhooks/${hook.id}`)).status).toBe(200);
    expect((await call("GET", `/owner/webhooks/${hook.id}`)).status).toBe(404);
  });

  it("sends a test event to a real receiver, logs the attempt, resends it with the same id, and signs twice after a rotation", async () => {
    const { body: hook } = await call("POST", "/owner/webhooks", { url: hookUrl, event_types: ["message.received"] });
    await call("PATCH", `/owner/webhooks/${hook.id}/headers`, { headers: { "X-Receiver-Token": "t0k3n" } });
    received.length = 0;

    const test = await call("POST", `/owner/webhooks/${hook.id}/test`);
    expect(test.status).toBe(202);
    expect(test.body.event_id).toMatch(/^mev_test_/);
    await drainJobs();
    expect(received).toHaveLength(1);
    const first = received[0] as Received;
    expect(first.headers["webhook-id"]).toBe(test.body.event_id);
    expect(first.headers["x-receiver-token"]).toBe("t0k3n");
    expect(verifies(hook.secret, first)).toBe(true);

    const log = await call("GET", `/owner/webhook-attempts?webhook_id=${hook.id}`);
    expect(log.status).toBe(200);
    expect(log.body.attempts).toHaveLength(1);
    expect(log.body.attempts[0]).toMatchObject({
      ok: true,
      status_code: 200,
      response_snippet: "thanks",
      error: null,
      delivery_id: test.body.delivery_id,
      event_id: test.body.event_id,
      event_type: "message.received",
      delivery_status: "delivered",
    });
    expect(Number.isInteger(log.body.attempts[0].duration_ms)).toBe(true);
    expect((await call("GET", `/owner/webhook-attempts?webhook_id=${hook.id}&outcome=failed`)).body.attempts).toEqual([]);
    expect((await call("GET", `/owner/webhook-attempts?webhook_id=${hook.id}&event_type=message.sent`)).body.attempts).toEqual([]);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await call("GET", `/owner/webhook-attempts?webhook_id=${hook.id}&since=${encodeURIComponent(future)}`)).body.attempts).toEqual([]);

    answer = 500;
    const resent = await call("POST", `/owner/webhook-deliveries/${test.body.delivery_id}/resend`);
    expect(resent.status).toBe(202);
    await drainJobs();
    answer = 200;
    // The resent delivery's first attempt fails and its first retry is due at once (then 5 s later): two attempts.
    expect(received).toHaveLength(3);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([test.body.event_id, test.body.event_id, test.body.event_id]);
    const failed = await call("GET", `/owner/webhook-attempts?webhook_id=${hook.id}&outcome=failed`);
    expect(failed.body.attempts).toHaveLength(2);
    expect(failed.body.attempts[0]).toMatchObject({ ok: false, status_code: 500, response_snippet: "receiver is down", delivery_id: resent.body.delivery_id });
    expect(resent.body.delivery_id).not.toBe(test.body.delivery_id);
    expect((await call("POST", "/owner/webhook-deliveries/wdl_doesnotexist/resend")).status).toBe(404);

    const beforeRotation = Date.now();
    const rotated = await call("POST", `/owner/webhooks/${hook.id}/rotate-secret`);
    const afterRotation = Date.now();
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    // The overlap ends 24 h after the rotation: between the clock readings on either side of the call, plus 24 h.
    const overlapEnd = Date.parse(rotated.body.previous_secret_until);
    expect(overlapEnd).toBeGreaterThanOrEqual(beforeRotation + 24 * 3600_000 - 1000);
    expect(overlapEnd).toBeLessThanOrEqual(afterRotation + 24 * 3600_000 + 1000);
    expect((await call("GET", `/owner/webhooks/${hook.id}`)).body.previous_secret_until).toBe(rotated.body.previous_secret_until);

    received.length = 0;
    await call("POST", `/owner/webhooks/${hook.id}/test`);
    await drainJobs();
    expect(received).toHaveLength(1);
    const signed = received[0] as Received;
    expect(String(signed.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(rotated.body.secret, signed)).toBe(true);
    expect(verifies(hook.secret, signed)).toBe(true);
  });
});
