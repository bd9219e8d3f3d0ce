import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { mailBatches, mailMessages, mailThreads } from "@/lib/db/schema/mail";
import { query } from "@/lib/db/statement";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { defaultMailbox } from "@/lib/mail/project-address";
import { approvalsHarness, ok, relaySink, sleep } from "@/lib/approvals/__tests__/helpers";

const { h, call, decide, setPolicy } = approvalsHarness();
const sink = relaySink();

const mail = (to: string[], over: Record<string, unknown> = {}) =>
  call("email_send", { to, subject: "Your refund", text: "We refunded 30 €.", wait_seconds: 0, ...over });
const statuses = async (batchId: string) => (await (await getDb()).select().from(mailMessages).where(eq(mailMessages.batchId, batchId))).map((m) => m.status);
/** What a batch's messages and their threads say about the send. */
const held = async (batchId: string) =>
  (
    await (
      await getDb()
    )
      .select({ sendStatus: mailMessages.sendStatus, labels: mailMessages.labels, thread: mailThreads.labels })
      .from(mailMessages)
      .innerJoin(mailThreads, eq(mailThreads.id, mailMessages.threadId))
      .where(eq(mailMessages.batchId, batchId))
  ).map((m) => ({ ...m, labels: m.labels.filter((l) => l !== "delivered"), thread: m.thread.filter((l) => l !== "delivered") }));
const quotaUsed = async () =>
  Number(
    (
      await query<{ used: number }>(
        await getDb(),
        sql`select coalesce(sum(used), 0)::int as used from mail_quota where project_id = ${h.seeded.project.id} and period like 'd:%'`,
      )
    )[0].used,
  );

describe("email_send under the policy", () => {
  it("is queued at once without a policy", async () => {
    const r = ok(await mail(["ann@example.com"]));
    expect(r).toMatchObject({ status: "queued", request_id: null });
  });

  it("answers POLICY_DENIED for a denied recipient domain, writing nothing", async () => {
    await setPolicy([
      { id: "no-rivals", tool: "email_send", domains_any: ["rival.com"], effect: "deny" },
      { id: "internal", tool: "email_send", domains: ["example.com"], effect: "allow" },
      { id: "outside-needs-ok", tool: "email_send", effect: "require_approval" },
    ]);
    const before = (await (await getDb()).select().from(mailBatches)).length;
    expect(await mail(["ann@example.com", "spy@rival.com"])).toMatchObject({ ok: false, code: "POLICY_DENIED" });
    expect((await (await getDb()).select().from(mailBatches)).length).toBe(before);
    expect(ok(await mail(["bob@example.com"])).status).toBe("queued");
  });

  it("holds the messages for a person; once approved they go out on their own", async () => {
    const r = ok(await mail(["carla@customer.org", "dan@customer.org"], { subject: "Invoice 77" }));
    expect(r).toMatchObject({ status: "pending" });
    expect(await statuses(r.batch_id)).toEqual(["pending", "pending"]);
    const [req] = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, r.request_id));
    expect(req).toMatchObject({ kind: "tool", action: "email_send", rule: "outside-needs-ok", summary: "Send “Invoice 77” to 2 recipients?" });
    expect(req.details).toContain("To: carla@customer.org, dan@customer.org");
    expect(req.payload).toMatchObject({
      to: ["carla@customer.org", "dan@customer.org"],
      subject: "Invoice 77",
      text_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    expect(await held(r.batch_id)).toEqual([{ sendStatus: "pending_approval", labels: ["pending_approval"], thread: ["pending_approval"] }, expect.anything()]);

    await decide(r.request_id, { outcome: "approve" });
    expect(await statuses(r.batch_id)).toEqual(["queued", "queued"]);
    await drainJobs();
    expect(sink.received.filter((m) => m.to[0].endsWith("@customer.org"))).toHaveLength(2);
    // Before: the messages kept the label they were held with, never `sent`, and so did their threads.
    const sent = { sendStatus: "sent", labels: ["sent"], thread: ["sent"] };
    expect(await held(r.batch_id)).toEqual([sent, sent]);
  });

  it("returns queued in the same call when the person approves during the wait", async () => {
    const pending = mail(["erin@customer.org"], { subject: "Waiting one", wait_seconds: 30 });
    let id: string | undefined;
    for (let i = 0; i < 100 && !id; i++) {
      await sleep(50);
      const rows = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.status, "pending"));
      id = rows.find((x) => x.summary.includes("Waiting one"))?.id;
    }
    await decide(id!, { outcome: "approve" });
    const r = ok(await pending);
    expect(r).toMatchObject({ status: "queued", request_id: id });
  });

  it("cancels the messages and gives the quota back when the person denies", async () => {
    const before = await quotaUsed();
    const r = ok(await mail(["fred@customer.org"], { subject: "Denied one" }));
    expect(await quotaUsed()).toBe(before + 1);
    await decide(r.request_id, { outcome: "deny", comment: "Wrong customer." });
    expect(await statuses(r.batch_id)).toEqual(["cancelled"]);
    // Before: send_status still said pending_approval.
    expect(await held(r.batch_id)).toEqual([{ sendStatus: "cancelled", labels: [], thread: [] }]);
    const [m] = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.batchId, r.batch_id));
    expect(m.sendReason).toBe("not sent: the request was denied");
    expect(await quotaUsed()).toBe(before);
    const [batch] = await (await getDb()).select().from(mailBatches).where(eq(mailBatches.id, r.batch_id));
    expect(batch.status).toBe("cancelled");
  });

  it("never sends a message that differs from the one the person saw", async () => {
    const r = ok(await mail(["gina@customer.org"], { subject: "Original subject" }));
    await (await getDb()).update(mailMessages).set({ subject: "Changed subject" }).where(eq(mailMessages.batchId, r.batch_id));
    await decide(r.request_id, { outcome: "approve" });
    expect(await statuses(r.batch_id)).toEqual(["cancelled"]);
  });

  it("withdraws the request when the project address is deleted: the messages are cancelled, the quota given back", async () => {
    const db = await getDb();
    const before = await quotaUsed();
    const r = ok(await mail(["ivy@customer.org"], { subject: "From an address about to go" }));
    const from = await defaultMailbox(db, h.seeded.project.id);
    ok(await call("delete_inbox", { inboxId: from.id }));
    const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, r.request_id));
    expect(req).toMatchObject({ status: "denied", comment: `Withdrawn: inbox ${from.address} was deleted before a decision.` });
    expect(await statuses(r.batch_id)).toEqual(["cancelled"]);
    expect(await quotaUsed()).toBe(before);
    await expect(decide(r.request_id, { outcome: "approve" })).rejects.toThrow(/already decided/);
    await drainJobs();
    expect(sink.received.filter((m) => m.to[0] === "ivy@customer.org")).toHaveLength(0);
  });

  it("sends at once under auto_approve_notify, with the approval recorded", async () => {
    await setPolicy([{ id: "newsletter", tool: "email_send", effect: "auto_approve_notify" }]);
    const r = ok(await mail(["hank@customer.org"]));
    expect(r.status).toBe("queued");
    const [req] = await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, r.request_id));
    expect(req).toMatchObject({ status: "approved", decidedBy: "policy:newsletter" });
  });
});
