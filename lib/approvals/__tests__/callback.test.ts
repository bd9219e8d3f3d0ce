import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { CALLBACK_RETRY_DELAYS_MS, callbackJob } from "@/lib/approvals/callbacks/callback-job";
import { callbackSecret, rotateCallbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { approvalsHarness } from "@/lib/approvals/__tests__/helpers";
import { lastLedgerEntry } from "@/lib/testing/ledger";

const { h, call, decide } = approvalsHarness();

let receiver: Server;
let hookUrl: string;
const received: { headers: IncomingHttpHeaders; body: string; receivedAt: number }[] = [];
/** Answers for the next deliveries, in order; once used up the receiver answers 204. */
const replies: { status: number; headers?: () => Record<string, string> }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body, receivedAt: Date.now() });
      const reply = replies.shift() ?? { status: 204 };
      res.writeHead(reply.status, reply.headers?.());
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  hookUrl = `http://127.0.0.1:${port}/hooks/approvals`;
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
});
afterAll(() => {
  receiver.closeAllConnections();
  receiver.close();
});

const callbackJobs = async () =>
  (await getDb())
    .select()
    .from(jobs)
    .where(and(eq(jobs.projectId, h.seeded.project.id), eq(jobs.kind, "approvals.callback")));

const headersOf = (d: { headers: IncomingHttpHeaders }) => ({
  "webhook-id": String(d.headers["webhook-id"]),
  "webhook-timestamp": String(d.headers["webhook-timestamp"]),
  "webhook-signature": String(d.headers["webhook-signature"]),
});

/** The callback job that made this delivery (its dedupe key is the event id, sent as webhook-id). */
const jobFor = async (d: { headers: IncomingHttpHeaders }) => {
  const [job] = (await callbackJobs()).filter((j) => j.dedupeKey === d.headers["webhook-id"]);
  return job;
};

/** Resolves a new request whose first delivery gets `reply`; returns its job and clock readings around the attempt. */
const failOnce = async (reply: (typeof replies)[number]) => {
  received.length = 0;
  replies.push(reply);
  const r = await call("ask_human", { question: "Deploy?", wait_seconds: 0, callback_url: hookUrl });
  await decide(r.ok ? (r.data.request_id as string) : "", { outcome: "answer", text: "no" });
  const t0 = Date.now();
  await drainJobs({ kinds: ["approvals.callback"] });
  const t1 = Date.now();
  expect(received).toHaveLength(1);
  const job = await jobFor(received[0]);
  expect(job).toMatchObject({ status: "pending", attempts: 1 });
  return { job, t0, t1 };
};

describe("callback_url", () => {
  it("receives the request.resolved event signed in the Standard Webhooks format", async () => {
    const r = await call("ask_approval", { action: "refund", summary: "Refund 30 €?", wait_seconds: 0, callback_url: hookUrl, state_ref: "task-9" });
    const id = r.ok ? (r.data.request_id as string) : "";
    await decide(id, { outcome: "approve" });
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    const secret = await callbackSecret(await getDb(), h.seeded.project.id);
    expect(secret).toMatch(/^whsec_/);
    const verified = new Webhook(secret).verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    }) as { type: string; data: Record<string, unknown> };
    expect(verified.type).toBe("request.resolved");
    expect(verified.data).toMatchObject({ request_id: id, status: "approved", state_ref: "task-9", decided_by: "owner:owner@example.com" });
    expect(String(headers["webhook-id"])).toMatch(/^evt_/);
    // A forged body does not verify.
    expect(() =>
      new Webhook(secret).verify(body.replace("approved", "denied"), {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"]),
      }),
    ).toThrow();
  });

  it("signs every attempt afresh, with the same webhook-id", async () => {
    received.length = 0;
    replies.push({ status: 500 });
    const r = await call("ask_human", { question: "Ship today?", wait_seconds: 0, callback_url: hookUrl });
    await decide(r.ok ? (r.data.request_id as string) : "", { outcome: "answer", text: "yes" });
    // The retry is sent 10 minutes after the first attempt (fake Date only: sockets and the database run for real).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now(), shouldAdvanceTime: true });
    try {
      await drainJobs({ kinds: ["approvals.callback"] });
      expect(received).toHaveLength(1);
      const job = await jobFor(received[0]);
      // Waiting out its backoff outside the claim's index (parked), until the claim after its time moves it back.
      expect(job).toMatchObject({ status: "pending", parked: true, attempts: 1, lastError: "callback answered 500" });
      await (await getDb()).update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job.id));
      vi.setSystemTime(Date.now() + 10 * 60_000);
      await drainJobs({ kinds: ["approvals.callback"] });
      expect(received).toHaveLength(2);
      expect((await jobFor(received[0])).status).toBe("done");
    } finally {
      vi.useRealTimers();
    }
    const [first, second] = received;
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(second.headers["webhook-timestamp"]).not.toBe(first.headers["webhook-timestamp"]);
    expect(second.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
    expect(second.body).toBe(first.body);
    const secret = await callbackSecret(await getDb(), h.seeded.project.id);
    for (const attempt of received) {
      // A standard verifier, run at the moment the attempt arrived (its tolerance is 5 minutes).
      expect(Math.abs(Number(attempt.headers["webhook-timestamp"]) - attempt.receivedAt / 1000)).toBeLessThan(5);
      vi.useFakeTimers({ toFake: ["Date"], now: attempt.receivedAt });
      try {
        expect(new Webhook(secret).verify(attempt.body, headersOf(attempt))).toMatchObject({ type: "request.resolved" });
      } finally {
        vi.useRealTimers();
      }
    }
  });

  it("is signed with the old secret beside the new one for 24 hours after a rotation, then with the new one alone", async () => {
    const db = await getDb();
    const old = await callbackSecret(db, h.seeded.project.id);
    const fresh = await rotateCallbackSecret(db, h.seeded.project.id);
    const deliver = async () => {
      received.length = 0;
      const r = await call("ask_human", { question: "Ship it?", wait_seconds: 0, callback_url: hookUrl });
      await decide(r.ok ? (r.data.request_id as string) : "", { outcome: "answer", text: "yes" });
      await drainJobs({ kinds: ["approvals.callback"] });
      expect(received).toHaveLength(1);
      return received[0];
    };
    // Before: one signature, the new secret's; a receiver still holding the old one refused every callback.
    const during = await deliver();
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [old, fresh]) expect(() => new Webhook(secret).verify(during.body, headersOf(during)), secret).not.toThrow();
    // The overlap over: the old secret no longer verifies.
    await db
      .update(approvalSettings)
      .set({ previousCallbackSecretUntil: sql`now() - interval '1 second'` })
      .where(eq(approvalSettings.projectId, h.seeded.project.id));
    const after = await deliver();
    expect(() => new Webhook(fresh).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(old).verify(after.body, headersOf(after))).toThrow();
  });

  // Found by helper-104: a callback given up on was recorded only on its job row (purged after 7 days, shown nowhere).
  it("puts a callback given up on (the receiver answered 410) on the Ledger, under its request", async () => {
    const r = await call("ask_approval", { action: "refund", summary: "Refund 5 €?", wait_seconds: 0, callback_url: hookUrl });
    const id = r.ok ? (r.data.request_id as string) : "";
    replies.push({ status: 410 });
    await decide(id, { outcome: "deny" });
    await drainJobs({ kinds: ["approvals.callback"] });
    const entry = await lastLedgerEntry(h.seeded.project.id, "approval.callback_failed");
    expect(entry).toMatchObject({ subject: id, actorType: "system" });
  });

  it("keeps a published retry schedule spanning at least 24 h", async () => {
    const total = CALLBACK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(callbackJob.maxAttempts).toBe(CALLBACK_RETRY_DELAYS_MS.length + 1);
    // A plain failure waits at least the schedule's first delay.
    const { job, t0, t1 } = await failOnce({ status: 500 });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(t0 + CALLBACK_RETRY_DELAYS_MS[0]);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(t1 + CALLBACK_RETRY_DELAYS_MS[0] * 1.1 + 1000);
  });

  it("honours Retry-After in seconds on 429", async () => {
    const { job, t0, t1 } = await failOnce({ status: 429, headers: () => ({ "retry-after": "600" }) });
    expect(job.lastError).toBe("callback answered 429");
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(t0 + 600_000);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(t1 + 600_000 * 1.1 + 1000);
  });

  it("honours Retry-After as an HTTP date on 503", async () => {
    let notBefore = 0;
    const { job, t1 } = await failOnce({
      status: 503,
      headers: () => {
        const date = new Date(Date.now() + 900_000).toUTCString();
        notBefore = Date.parse(date);
        return { "retry-after": date };
      },
    });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(notBefore);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(t1 + 900_000 * 1.1 + 1000);
  });

  it("caps an absurd Retry-After at the schedule's longest delay", async () => {
    const max = Math.max(...CALLBACK_RETRY_DELAYS_MS);
    const { job, t0, t1 } = await failOnce({ status: 503, headers: () => ({ "retry-after": String(10 * 365 * 86_400) }) });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(t0 + max);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(t1 + max * 1.1 + 1000);
  });

  it("is sent for policy decisions and expiries too", async () => {
    received.length = 0;
    const r = await call("ask_human", { question: "Anyone?", wait_seconds: 0, callback_url: hookUrl });
    const id = r.ok ? (r.data.request_id as string) : "";
    await (await getDb()).execute(sql`update approval_requests set expires_at = now() - interval '1 second' where id = ${id}`);
    expect((await call("request_status", { request_id: id })).ok).toBe(true);
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(JSON.parse(received[0].body).data).toMatchObject({ request_id: id, status: "expired" });
  });
});
