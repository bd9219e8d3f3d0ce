import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import type { AppError } from "@/lib/errors";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { waitForRequest } from "@/lib/approvals/wait-for-request";
import { approvalsHarness, sleep } from "@/lib/approvals/__tests__/helpers";

const { h, call, decide, resolvedEvents } = approvalsHarness();

const ask = (over: Record<string, unknown> = {}) =>
  call("ask_approval", { action: "refund", summary: "Refund order 1042 (30 €)?", amount: 30, wait_seconds: 0, ...over });

const pendingIds = async () =>
  (
    await (
      await getDb()
    )
      .select({ id: approvalRequests.id })
      .from(approvalRequests)
      .where(and(eq(approvalRequests.projectId, h.seeded.project.id), eq(approvalRequests.status, "pending")))
  ).map((r) => r.id);

/** Starts a waiting call and finds the request it wrote (the one pending now that was not before), while it waits. */
async function waitingAsk<T>(start: () => Promise<T>): Promise<{ pending: Promise<T>; id: string }> {
  const before = new Set(await pendingIds());
  const pending = start();
  for (let i = 0; i < 200; i++) {
    await sleep(50);
    const id = (await pendingIds()).find((x) => !before.has(x));
    if (id) return { pending, id };
  }
  throw new Error("the waiting call wrote no request");
}

async function decideError(requestId: string, verdict: Parameters<typeof decide>[1]) {
  try {
    await decide(requestId, verdict);
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected the decision to fail");
}

describe("ask_approval answered in the dashboard", () => {
  it("returns pending with a hint when nobody decides within wait_seconds, and request_status resumes", async () => {
    const r = await ask({ state_ref: "kv:state/refund-1042" });
    expect(r.ok && r.data).toMatchObject({ status: "pending", kind: "approval", decision: null, state_ref: "kv:state/refund-1042" });
    const id = r.ok ? (r.data.request_id as string) : "";
    expect(id).toMatch(/^req_/);
    expect(r.ok && r.data.hint).toContain("request_status");
    const s = await call("request_status", { request_id: id });
    expect(s.ok && s.data.status).toBe("pending");
  });

  it("wakes the waiting agent as soon as the owner approves, with who decided", async () => {
    // A wait longer than the test's timeout: the call can only return by being woken.
    let returned = false;
    const { pending, id } = await waitingAsk(() => ask({ wait_seconds: 120 }).finally(() => (returned = true)));
    expect(returned).toBe(false);
    await decide(id, { outcome: "approve", comment: "ok, go" });
    const r = await pending;
    expect(r.ok && r.data).toMatchObject({ request_id: id, status: "approved", comment: "ok, go", decided_by: "owner:owner@example.com" });
    const event = (await resolvedEvents()).find((e) => (e.payload as { request_id: string }).request_id === id)!;
    expect(event).toMatchObject({ source: "brynth", trust: "brynth", status: "pending" });
    expect(event.payload).toMatchObject({ status: "approved", decided_by: "owner:owner@example.com" });
  });

  it.runIf(/^postgres/.test(process.env.DATABASE_URL ?? ""))(
    "looks again when its LISTEN connection is re-established, so a decision whose notification was lost is returned",
    async () => {
      const db = await getDb();
      // A wait longer than the test's timeout: the call can only return by being woken.
      const { pending, id } = await waitingAsk(() => ask({ wait_seconds: 120 }));
      // Decided without a notification, as one told while the LISTEN connection was down is lost.
      await db
        .update(approvalRequests)
        .set({ status: "approved", decidedBy: "owner:owner@example.com", decidedAt: new Date() })
        .where(eq(approvalRequests.id, id));
      // The connection drops; the driver re-LISTENs on a new one. Before the fix the agent waited on to its timeout.
      await db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
      );
      const r = await pending;
      expect(r.ok && r.data).toMatchObject({ request_id: id, status: "approved" });
    },
  );

  it("gives modified with the chosen option as decision, and refuses an option the request does not have", async () => {
    const r = await ask({ options: ["Refund 15 € only", "Store credit"] });
    const id = r.ok ? (r.data.request_id as string) : "";
    expect((await decideError(id, { outcome: "option", option: "Cash" })).code).toBe("validation_error");
    await decide(id, { outcome: "option", option: "Store credit" });
    const s = await call("request_status", { request_id: id });
    expect(s.ok && s.data).toMatchObject({ status: "modified", decision: "Store credit" });
  });

  it("gives needs_context with the comment and tells the agent to open a new request", async () => {
    const r = await ask();
    const id = r.ok ? (r.data.request_id as string) : "";
    await decide(id, { outcome: "needs_context", comment: "Which customer? Link the ticket." });
    const s = await call("request_status", { request_id: id });
    expect(s.ok && s.data).toMatchObject({ status: "needs_context", comment: "Which customer? Link the ticket." });
    expect(s.ok && s.data.hint).toMatch(/new request/);
  });

  it("takes one decision: a second answer is told it was already decided", async () => {
    const r = await ask();
    const id = r.ok ? (r.data.request_id as string) : "";
    await decide(id, { outcome: "deny" });
    const err = await decideError(id, { outcome: "approve" });
    expect(err.code).toBe("ALREADY_DECIDED");
    expect(err.message).toMatch(/already decided: denied by owner:owner@example.com/);
    const s = await call("request_status", { request_id: id });
    expect(s.ok && s.data.status).toBe("denied");
  });

  it("lets exactly one of two simultaneous decisions win", async () => {
    const r = await ask();
    const id = r.ok ? (r.data.request_id as string) : "";
    const results = await Promise.allSettled([decide(id, { outcome: "approve" }), decide(id, { outcome: "deny" })]);
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).code).toBe("ALREADY_DECIDED");
    const events = (await resolvedEvents()).filter((e) => (e.payload as { request_id: string }).request_id === id);
    expect(events).toHaveLength(1);
  });

  it("expires exactly at expires_at: no decision after it, an expired status and its event", async () => {
    const asked = Date.now();
    const r = await ask({ expires_in: "1m" });
    const answered = Date.now();
    const id = r.ok ? (r.data.request_id as string) : "";
    const expiresAt = new Date(r.ok ? (r.data.expires_at as string) : 0).getTime();
    // A minute from when the request was made, which lies between the two readings of the clock.
    expect(expiresAt).toBeGreaterThanOrEqual(asked + 60_000);
    expect(expiresAt).toBeLessThanOrEqual(answered + 60_000);
    const db = await getDb();
    const past = new Date(Date.now() - 1000);
    await db.update(approvalRequests).set({ expiresAt: past }).where(eq(approvalRequests.id, id));
    const err = await decideError(id, { outcome: "approve" });
    expect(err.code).toBe("ALREADY_DECIDED");
    expect(err.message).toMatch(/expired/);
    const s = await call("request_status", { request_id: id });
    expect(s.ok && s.data).toMatchObject({ status: "expired", decided_at: past.toISOString() });
    const event = (await resolvedEvents()).find((e) => (e.payload as { request_id: string }).request_id === id);
    expect(event?.payload).toMatchObject({ status: "expired" });
  });

  it("expires overdue requests in the sweep, with events, and a waiter sees expired at once", async () => {
    const db = await getDb();
    const a = await ask();
    const idA = a.ok ? (a.data.request_id as string) : "";
    await db
      .update(approvalRequests)
      .set({ expiresAt: new Date(Date.now() - 10) })
      .where(eq(approvalRequests.id, idA));
    const swept = await db.transaction((tx) => expireRequests(tx, { projectId: h.seeded.project.id }));
    expect(swept.map((x) => x.id)).toContain(idA);
    expect((await resolvedEvents()).some((e) => (e.payload as { request_id: string; status: string }).request_id === idA)).toBe(true);

    // A waiter whose request expires during its wait gets `expired` right then, not at the end of its wait.
    const b = await ask();
    const idB = b.ok ? (b.data.request_id as string) : "";
    const expiresAt = new Date(Date.now() + 600);
    await db.update(approvalRequests).set({ expiresAt }).where(eq(approvalRequests.id, idB));
    // A wait longer than the test's timeout: only the expiry can end it, and the request says when that was.
    const row = await waitForRequest(db, { projectId: h.seeded.project.id, requestId: idB, timeoutMs: 600_000 });
    expect(row).toMatchObject({ status: "expired", decidedAt: expiresAt });
    const s = await call("request_status", { request_id: idB });
    expect(s.ok && s.data.status).toBe("expired");
  });

  it("ledgers every decision with who decided, through which channel and the hash of what was approved", async () => {
    const r = await ask();
    const id = r.ok ? (r.data.request_id as string) : "";
    await decide(id, { outcome: "approve" });
    const db = await getDb();
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.projectId, h.seeded.project.id), eq(ledgerEntries.subject, id)));
    const decision = entries.find((e) => e.op === "request.decide")!;
    expect(decision).toMatchObject({ actorType: "owner", via: "dashboard", agent: "owner@example.com" });
    expect(decision.inputDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(entries.some((e) => e.op === "ask.approval")).toBe(true);
    const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, id));
    expect(row.decidedChannelId).toMatch(/^chn_/);
    expect(row.actionHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("ask_human", () => {
  it("is answered with an option or free text", async () => {
    const q = await call("ask_human", { question: "Which carrier for order 1042?", options: ["DHL", "UPS"], wait_seconds: 0 });
    const id = q.ok ? (q.data.request_id as string) : "";
    expect(q.ok && q.data.kind).toBe("question");
    expect((await decideError(id, { outcome: "approve" })).code).toBe("validation_error");
    await decide(id, { outcome: "option", option: "UPS" });
    expect((await call("request_status", { request_id: id })).ok && (await call("request_status", { request_id: id }))).toMatchObject({
      data: { status: "answered", decision: "UPS" },
    });

    const free = await call("ask_human", { question: "What should the apology say?", wait_seconds: 0 });
    const freeId = free.ok ? (free.data.request_id as string) : "";
    await decide(freeId, { outcome: "answer", text: "Sorry for the delay, here is 10% off." });
    const s = await call("request_status", { request_id: freeId });
    expect(s.ok && s.data).toMatchObject({ status: "answered", decision: "Sorry for the delay, here is 10% off." });
  });
});

describe("request_status", () => {
  it("answers NOT_FOUND for an unknown request and validation_error for a malformed id", async () => {
    expect(await call("request_status", { request_id: "req_doesnotexist" })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await call("request_status", { request_id: "evt_123" })).toMatchObject({ ok: false, code: "validation_error" });
  });
});
