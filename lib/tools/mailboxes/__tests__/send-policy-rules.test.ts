import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";
import { mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { setPolicyAsOwner } from "@/lib/policy/set-policy-as-owner";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedOwner } from "@/lib/testing/seed";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal } from "./inbox-test-helpers";

/**
 * Design §1.9 6: the project policy gates the four send tools as it gates email_send — `deny` refuses, a
 * `require_approval` rule holds the send as a draft — and a rule can add a hold to a mailbox but never lift the
 * mailbox's own `approval` or `read_only`.
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let from: Awaited<ReturnType<typeof seedMailbox>>;
let to: Awaited<ReturnType<typeof seedMailbox>>;

async function policy(rules: unknown[]) {
  const db = await getDb();
  const owner = await seedOwner();
  await db.transaction(async (tx) => setPolicyAsOwner(tx, { actor: await ownerActor(tx, owner, p.project.id, "dashboard"), policy: { rules } }));
}
const sentFrom = async (subject: string) => (await getDb()).select().from(mailMessages).where(eq(mailMessages.subject, subject));

beforeAll(async () => {
  p = await projectWithKey("Send policy rules");
  from = await seedMailbox(p.project.id);
  to = await seedMailbox(p.project.id);
});

describe("project policy rules over the send tools", () => {
  it("refuses with POLICY_DENIED under a deny rule, naming the rule, and writes nothing", async () => {
    await policy([{ id: "no-mail", tool: "send_message", effect: "deny" }]);
    const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Denied", text: "x" });
    expect(err.code).toBe("POLICY_DENIED");
    expect(err.details).toMatchObject({ rule: "no-mail" });
    expect(await sentFrom("Denied")).toHaveLength(0);
  });

  it("holds the send as a draft under a require_approval rule for the recipients' domain", async () => {
    const domain = to.address.split("@")[1];
    await policy([{ id: "ask-first", tool: "send_message", domains: [domain], effect: "require_approval" }]);
    const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Held by rule", text: "x" });
    expect(err.code).toBe("approval_required");
    const draftId = (err.details as { draft_id: string }).draft_id;
    const db = await getDb();
    const [draft] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, draftId));
    expect(draft.sendStatus).toBe("pending_approval");
    const [request] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, draft.approvalRequestId!));
    expect(request).toMatchObject({ status: "pending", action: "send_draft", rule: "ask-first" });
    expect(await sentFrom("Held by rule")).toHaveLength(0);
  });

  it("never lifts the mailbox's own hold: an allow rule leaves approval and read_only mailboxes as they are", async () => {
    await policy([{ id: "let-it-go", tool: "send_message", effect: "allow" }]);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    expect((await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Still held", text: "x" })).code).toBe("approval_required");
    await db.update(mailboxes).set({ sendPolicy: "read_only" }).where(eq(mailboxes.id, from.id));
    expect((await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Still read-only", text: "x" })).code).toBe("missing_permission");
    await db.update(mailboxes).set({ sendPolicy: "direct" }).where(eq(mailboxes.id, from.id));
    expect(await call(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Allowed", text: "x" })).toMatchObject({ send_status: "queued" });
  });

  it("refuses under a deny rule in an approval mailbox too: a refusal is never turned into a hold someone could approve", async () => {
    await policy([{ id: "no-mail", tool: "send_message", effect: "deny" }]);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    try {
      const before = (await db.select().from(mailDrafts).where(eq(mailDrafts.mailboxId, from.id))).length;
      // Before: approval_required, a held draft and a pending request, so the send the policy forbids could go out.
      const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Denied while held", text: "x" });
      expect([err.code, err.details]).toEqual(["POLICY_DENIED", { rule: "no-mail" }]);
      expect(await db.select().from(mailDrafts).where(eq(mailDrafts.mailboxId, from.id))).toHaveLength(before);
    } finally {
      await db.update(mailboxes).set({ sendPolicy: "direct" }).where(eq(mailboxes.id, from.id));
    }
  });

  it("sends under auto_approve_notify and records it as email_send does: an approved request decided by the rule, its notice queued", async () => {
    const db = await getDb();
    const channel = newId("chn");
    await db
      .insert(approvalChannels)
      .values({ id: channel, projectId: p.project.id, kind: "email", label: "told", address: "told@brynth.localhost", status: "active" });
    await policy([{ id: "notify-mail", tool: "send_message", effect: "auto_approve_notify", approvers: [channel] }]);
    const out = await call(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], cc: [from.address], subject: "Told", text: "Hello there." });
    expect(out).toMatchObject({ send_status: "queued" });
    // Before: sent with no request at all, and nobody told.
    const [request] = await db.select().from(approvalRequests).where(eq(approvalRequests.rule, "notify-mail"));
    expect(request).toMatchObject({
      kind: "tool",
      action: "send_message",
      status: "approved",
      decidedBy: "policy:notify-mail",
      summary: "Send “Told” to 2 recipients?",
      payload: { message_id: out.message_id, inbox_id: from.id, to: [to.address], cc: [from.address], bcc: [], subject: "Told" },
    });
    expect(request.details).toContain(`To: ${to.address}`);
    expect(request.details).toContain("Hello there.");
    const notices = await db.select().from(approvalDeliveries).where(eq(approvalDeliveries.requestId, request.id));
    expect(notices.map((n) => [n.channelId, n.notice])).toEqual([[channel, true]]);
    // auto_approve records the same approval without telling anyone.
    await policy([{ id: "quiet-mail", tool: "send_message", effect: "auto_approve" }]);
    await call(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Quiet", text: "x" });
    const [quiet] = await db.select().from(approvalRequests).where(eq(approvalRequests.rule, "quiet-mail"));
    expect(quiet).toMatchObject({ status: "approved", decidedBy: "policy:quiet-mail" });
    expect(await db.select().from(approvalDeliveries).where(eq(approvalDeliveries.requestId, quiet.id))).toHaveLength(0);
  });
});
