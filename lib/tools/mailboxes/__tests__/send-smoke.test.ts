import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries, mailDrafts } from "@/lib/db/schema/mail-send";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal } from "./inbox-test-helpers";

let p: Awaited<ReturnType<typeof projectWithKey>>;
let from: Awaited<ReturnType<typeof seedMailbox>>;
let to: Awaited<ReturnType<typeof seedMailbox>>;

beforeAll(async () => {
  p = await projectWithKey("Send smoke");
  from = await seedMailbox(p.project.id);
  to = await seedMailbox(p.project.id);
});

describe("send_message (smoke)", () => {
  it("sends one message to a local inbox, with bcc in the envelope only, and replays an idempotency key", async () => {
    const other = await seedMailbox(p.project.id);
    const args = { inboxId: from.id, to: [to.address], bcc: [other.address], subject: "Hi", text: "Hello there", idempotencyKey: "k1" };
    const out = await call(sendMessage, p.mcp, args);
    expect(out).toMatchObject({ message_id: expect.stringMatching(/^msg_/), thread_id: expect.stringMatching(/^thr_/), send_status: "queued" });
    const again = await call(sendMessage, p.rest, {
      inbox_id: from.id,
      to: [to.address],
      bcc: [other.address],
      subject: "Hi",
      text: "Hello there",
      idempotency_key: "k1",
    });
    expect(again).toEqual(out);
    const db = await getDb();
    expect((await db.select().from(mailDeliveries).where(eq(mailDeliveries.messageId, out.message_id))).length).toBe(2);
    await drainJobs();
    const [sent] = await db.select().from(mailMessages).where(eq(mailMessages.id, out.message_id));
    expect(sent).toMatchObject({ status: "sent", sendStatus: "sent" });
    const got = await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, other.id));
    expect(got).toHaveLength(1);
    expect(got[0].to).toEqual([to.address]);
    expect(got[0].cc).toEqual([]);
    const conflict = await refusal(sendMessage, p.mcp, { ...args, text: "changed" });
    expect(conflict.code).toBe("CONFLICT");
  });

  it("holds the send as a draft with approval_required in approval mode", async () => {
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Held", text: "wait", idempotencyKey: "k2" });
    expect(err.code).toBe("approval_required");
    const draftId = (err.details as { draft_id: string }).draft_id;
    expect(err.message).toContain(draftId);
    expect(err.fix).toContain(draftId);
    const [draft] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, draftId));
    expect(draft.sendStatus).toBe("pending_approval");
    const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, draft.approvalRequestId!));
    expect(req.status).toBe("pending");
    const replay = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Held", text: "wait", idempotencyKey: "k2" });
    expect(replay.message).toBe(err.message);
    await db.update(mailboxes).set({ sendPolicy: "read_only" }).where(eq(mailboxes.id, from.id));
    expect((await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "No", text: "x" })).code).toBe("missing_permission");
  });
});
