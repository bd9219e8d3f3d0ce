import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { diskTrash } from "@/lib/db/schema/disk";
import { mailAttachments, mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { newId } from "@/lib/ids";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { settleDraftApproval } from "@/lib/mail/drafts/settle-draft-approval";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { envSettings } from "@/lib/testing/env-settings";
import { rawMail, seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteDraft } from "@/lib/tools/mailboxes/delete-draft";
import { deleteInbox } from "@/lib/tools/mailboxes/delete-inbox";
import { deleteMessage } from "@/lib/tools/mailboxes/delete-message";
import { getAnyDraft } from "@/lib/tools/mailboxes/get-any-draft";
import { getDraft } from "@/lib/tools/mailboxes/get-draft";
import { getDraftAttachment } from "@/lib/tools/mailboxes/get-draft-attachment";
import { listAllDrafts } from "@/lib/tools/mailboxes/list-all-drafts";
import { listDrafts } from "@/lib/tools/mailboxes/list-drafts";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";
import { dueNow, draftWrites, hoursAhead } from "./draft-test-helpers";
import { actorOf, call, projectWithKey, refusal } from "./inbox-test-helpers";
import { seedKey } from "@/lib/testing/seed";

const draftRows = async (mailboxId: string) => (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.mailboxId, mailboxId)).orderBy(mailDrafts.id);

let p: Awaited<ReturnType<typeof projectWithKey>>;
let a: Awaited<ReturnType<typeof seedMailbox>>;
let b: Awaited<ReturnType<typeof seedMailbox>>;

const b64 = (s: string) => Buffer.from(s).toString("base64");

beforeAll(async () => {
  p = await projectWithKey("Drafts");
  a = await seedMailbox(p.project.id);
  b = await seedMailbox(p.project.id);
});

/** Mail from b to a (and cc), received through the real inbound pipeline, as if delivered locally. */
async function receiveInA(o: { subject: string; cc?: string; replyTo?: string; messageId?: string }) {
  const raw = await rawMail({
    from: b.address,
    to: a.address,
    subject: o.subject,
    text: "Original text.",
    messageId: o.messageId ?? `<${newId("x")}@sender.test>`,
    ...(o.cc ? { cc: o.cc } : {}),
    ...(o.replyTo ? { replyTo: o.replyTo } : {}),
  } as Parameters<typeof rawMail>[0]);
  const [stored] = await receiveMessage(raw, { mailFrom: b.address, recipients: [a], remote: "local" });
  const db = await getDb();
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, stored.messageId));
  return row;
}

describe("drafts over MCP (camelCase in, snake_case out)", () => {
  it("creates, reads, changes and sends a draft; the draft is gone and the message arrives with its files", async () => {
    const created = await call(createDraft, p.mcp, {
      inboxId: a.id,
      to: [b.address],
      subject: "Plan",
      text: "First version",
      labels: ["project-x"],
      attachments: [
        { filename: "one.txt", contentType: "text/plain", content: b64("one\n") },
        { filename: "two.txt", contentType: "text/plain", content: b64("two\n") },
      ],
    });
    expect(created).toMatchObject({
      draft_id: expect.stringMatching(/^drf_/),
      inbox_id: a.id,
      kind: "new",
      to: [b.address],
      subject: "Plan",
      text: "First version",
      labels: ["project-x"],
      send_status: null,
      send_at: null,
      thread_id: null,
    });
    expect(created.attachments.map((f: { filename: string }) => f.filename)).toEqual(["one.txt", "two.txt"]);
    const id = created.draft_id;
    const read = await call(getDraft, p.mcp, { inboxId: a.id, draftId: id });
    expect(read).toEqual(created);

    const two = created.attachments[1].attachment_id;
    const changed = await call(updateDraft, p.mcp, {
      inboxId: a.id,
      draftId: id,
      subject: "Plan v2",
      cc: [a.address],
      html: null,
      removeAttachments: [two],
      addAttachments: [{ filename: "three.txt", contentType: "text/plain", content: b64("three\n") }],
      addLabels: ["urgent"],
      removeLabels: ["project-x"],
    });
    expect(changed).toMatchObject({ subject: "Plan v2", text: "First version", to: [b.address], cc: [a.address], labels: ["urgent"] });
    expect(changed.attachments.map((f: { filename: string }) => f.filename)).toEqual(["one.txt", "three.txt"]);
    // Omitted fields stay; null and [] clear.
    const cleared = await call(updateDraft, p.mcp, { inboxId: a.id, draftId: id, cc: [], text: "Final" });
    expect(cleared).toMatchObject({ cc: [], text: "Final", subject: "Plan v2" });
    const db = await getDb();
    const [row] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, id));
    expect(row.version).toBe(3);

    const sent = await call(sendDraft, p.mcp, { inboxId: a.id, draftId: id, addLabels: ["done"] });
    expect(sent).toMatchObject({ message_id: expect.stringMatching(/^msg_/), send_status: "queued" });
    expect(await db.select().from(mailDrafts).where(eq(mailDrafts.id, id))).toHaveLength(0);
    expect((await refusal(getDraft, p.mcp, { inboxId: a.id, draftId: id })).code).toBe("NOT_FOUND");
    expect((await refusal(sendDraft, p.mcp, { inboxId: a.id, draftId: id })).code).toBe("NOT_FOUND");
    await drainJobs();
    const [out] = await db.select().from(mailMessages).where(eq(mailMessages.id, sent.message_id));
    expect(out).toMatchObject({ subject: "Plan v2", sendStatus: "sent", draftId: id });
    expect(out.labels).toEqual(expect.arrayContaining(["urgent", "done"]));
    const got = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, b.id), eq(mailMessages.subject, "Plan v2")));
    expect(got).toHaveLength(1);
    expect(got[0].text?.trim()).toBe("Final");
    const files = await db.select().from(mailAttachments).where(eq(mailAttachments.messageId, got[0].id));
    expect(files.map((f) => f.name).sort()).toEqual(["one.txt", "three.txt"]);
  });

  it("keeps the References a plain draft is given", async () => {
    const d = await call(createDraft, p.mcp, { inboxId: a.id, subject: "Refs", references: ["one@x.test", "two@x.test"] });
    expect(d).toMatchObject({ kind: "new", references: ["one@x.test", "two@x.test"], thread_id: null });
  });

  it("replays a clientId: the same draft, written once", async () => {
    const args = { inboxId: a.id, to: [b.address], subject: "Once", clientId: "client-1" };
    const first = await call(createDraft, p.mcp, args);
    const again = await call(createDraft, p.mcp, args);
    expect(again.draft_id).toBe(first.draft_id);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(mailDrafts)
        .where(and(eq(mailDrafts.mailboxId, a.id), eq(mailDrafts.clientId, "client-1"))),
    ).toHaveLength(1);
  });

  // A sent draft was deleted and freed its clientId: a retry made (and scheduled) a second draft (found by helper-109).
  it("refuses a clientId whose draft was sent, naming the message, in the caller's casing", async () => {
    const args = { inboxId: a.id, to: [b.address], subject: "Sent once", text: "x", clientId: "client-sent" };
    const draft = await call(createDraft, p.mcp, args);
    const sent = await call(sendDraft, p.mcp, { inboxId: a.id, draftId: draft.draft_id });
    const before = await draftRows(a.id);
    const err = await refusal(createDraft, p.mcp, args);
    expect(err).toMatchObject({ code: "CONFLICT", message: expect.stringContaining(`was sent already, as message ${sent.message_id}`) });
    expect(err.details).toEqual([{ field: "clientId", message: `sent as message ${sent.message_id}` }]);
    const rest = await refusal(createDraft, p.rest, { inbox_id: a.id, to: [b.address], subject: "Sent once", text: "x", client_id: "client-sent" });
    expect(rest.details).toEqual([{ field: "client_id", message: `sent as message ${sent.message_id}` }]);
    expect(await draftRows(a.id)).toEqual(before);
  });

  // Another key's clientId handed it that key's draft whole, bodies and bcc included (found by helper-109).
  it("refuses another key's clientId instead of answering its draft", async () => {
    const secret = await call(createDraft, p.mcp, {
      inboxId: a.id,
      to: [b.address],
      bcc: ["hidden@x.test"],
      subject: "Mine",
      text: "the secret body",
      clientId: "shared",
    });
    const { key: other } = await seedKey(p.project.id, ["draft_create"]);
    const err = await refusal(createDraft, actorOf(other, p.project.name, "mcp"), { inboxId: a.id, subject: "Theirs", text: "other", clientId: "shared" });
    expect(err).toMatchObject({ code: "CONFLICT", details: [{ field: "clientId", message: "used by another caller in this inbox" }] });
    expect(JSON.stringify(err)).not.toContain("secret body");
    expect((await call(createDraft, p.mcp, { inboxId: a.id, subject: "Mine", clientId: "shared" })).draft_id).toBe(secret.draft_id);
  });

  it("lists drafts newest first with pages, by label (scheduled), and project-wide without inboxId", async () => {
    const box = await seedMailbox(p.project.id);
    const ids: string[] = [];
    for (const i of [1, 2, 3]) ids.push((await call(createDraft, p.mcp, { inboxId: box.id, subject: `L${i}`, text: "x" })).draft_id);
    const scheduled = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Later", text: "x", sendAt: hoursAhead(2) });
    expect(scheduled).toMatchObject({ send_status: "scheduled", labels: ["scheduled"] });
    const page1 = await call(listDrafts, p.mcp, { inboxId: box.id, limit: 3 });
    expect(page1.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual([scheduled.draft_id, ids[2], ids[1]]);
    expect(page1.drafts[0].text).toBe("x");
    const page2 = await call(listDrafts, p.mcp, { inboxId: box.id, limit: 3, pageToken: page1.next_page_token });
    expect(page2.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual([ids[0]]);
    expect(page2.next_page_token).toBeNull();
    const asc = await call(listDrafts, p.mcp, { inboxId: box.id, ascending: true, limit: 1 });
    expect(asc.drafts[0].draft_id).toBe(ids[0]);
    const onlyScheduled = await call(listDrafts, p.mcp, { inboxId: box.id, labels: ["scheduled"] });
    expect(onlyScheduled.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual([scheduled.draft_id]);
    const everywhere = await call(listDrafts, p.mcp, { labels: ["scheduled"], limit: 100 });
    expect(everywhere.drafts.map((d: { draft_id: string }) => d.draft_id)).toContain(scheduled.draft_id);
    const rest = await call(listAllDrafts, p.rest, { labels: ["scheduled"], limit: 100 });
    expect(rest.drafts.map((d: { draft_id: string }) => d.draft_id)).toContain(scheduled.draft_id);
    // Without an inbox, list_drafts over MCP and GET /drafts over REST page alike, each taking the other's token.
    const first = await call(listDrafts, p.mcp, { limit: 1 });
    const second = await call(listDrafts, p.mcp, { limit: 1, pageToken: first.next_page_token });
    const secondRest = await call(listAllDrafts, p.rest, { limit: 1, page_token: first.next_page_token });
    expect(secondRest.drafts.map((d: { draft_id: string }) => d.draft_id)).toEqual(second.drafts.map((d: { draft_id: string }) => d.draft_id));
    expect((await call(listDrafts, p.mcp, { limit: 1, pageToken: secondRest.next_page_token })).drafts).toHaveLength(1);
    // `before` and `after` a draft's own updated_at, as shown (milliseconds; stored in microseconds), leave it out.
    const changed = await call(updateDraft, p.mcp, { inboxId: box.id, draftId: ids[0], subject: "L1 again" });
    for (const [via, tool, scope] of [
      [p.mcp, listDrafts, { inboxId: box.id }],
      [p.rest, listDrafts, { inbox_id: box.id }],
      [p.rest, listAllDrafts, {}],
    ] as const) {
      for (const edge of ["after", "before"]) {
        const listed = await call(tool, via, { ...scope, [edge]: changed.updated_at, limit: 100 });
        expect(listed.drafts.map((d: { draft_id: string }) => d.draft_id)).not.toContain(ids[0]);
      }
      // The last storable millisecond: nothing is after it (before, the next millisecond was year 10000: a 500).
      expect((await call(tool, via, { ...scope, after: "9999-12-31T23:59:59.999Z" })).drafts).toEqual([]);
    }
  });

  it("shortens a large draft over MCP and never over REST", async () => {
    const big = "word ".repeat(40_000);
    const d = await call(createDraft, p.mcp, { inboxId: a.id, subject: "Big", text: big });
    const viaMcp = await call(getDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
    expect(viaMcp.truncated).toBe(true);
    expect(viaMcp.fix).toContain(`/drafts/${d.draft_id}`);
    expect(Buffer.byteLength(JSON.stringify(viaMcp))).toBeLessThanOrEqual(19_000);
    const viaRest = await call(getDraft, p.rest, { inbox_id: a.id, draft_id: d.draft_id });
    expect(viaRest.text).toBe(big);
    const list = await call(listDrafts, p.mcp, { inboxId: a.id, limit: 100 });
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThanOrEqual(19_000);
    await call(deleteDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
  });
});

describe("drafts over REST (snake_case)", () => {
  it("creates, changes, reads (also instance-wide), downloads an attachment and sends", async () => {
    const created = await call(createDraft, p.rest, {
      inbox_id: a.id,
      to: [b.address],
      reply_to: [a.address],
      subject: "Over REST",
      text: "hello",
      attachments: [{ filename: "r.txt", content_type: "text/plain", content: b64("rest file\n") }],
    });
    expect(created).toMatchObject({ reply_to: [a.address], subject: "Over REST" });
    const id = created.draft_id;
    const changed = await call(updateDraft, p.rest, { inbox_id: a.id, draft_id: id, send_at: hoursAhead(1), add_labels: ["r"] });
    expect(changed).toMatchObject({ send_status: "scheduled", labels: ["r", "scheduled"] });
    const unscheduled = await call(updateDraft, p.rest, { inbox_id: a.id, draft_id: id, send_at: null });
    expect(unscheduled).toMatchObject({ send_status: null, send_at: null, labels: ["r"] });
    const any = await call(getAnyDraft, p.rest, { draft_id: id });
    expect(any).toEqual(unscheduled);
    const file = await call(getDraftAttachment, p.rest, { inbox_id: a.id, draft_id: id, attachment_id: created.attachments[0].attachment_id });
    expect(file).toMatchObject({ filename: "r.txt", content_type: "text/plain", size: 10 });
    const res = await getDraftAttachment.rest.respond!(
      { attachmentId: file.attachment_id, draftId: id, inboxId: a.id, filename: "r.txt", contentType: "text/plain", size: 10 },
      { actor: p.rest, method: "GET" },
    );
    expect(await res.text()).toBe("rest file\n");
    expect((await refusal(getDraftAttachment, p.rest, { inbox_id: a.id, draft_id: id, attachment_id: "att_nope" })).code).toBe("NOT_FOUND");
    const sent = await call(sendDraft, p.rest, { inbox_id: a.id, draft_id: id, idempotency_key: "rest-send-1" });
    expect(sent.send_status).toBe("queued");
    // The same key replays the first answer though the draft is gone.
    expect(await call(sendDraft, p.rest, { inbox_id: a.id, draft_id: id, idempotency_key: "rest-send-1" })).toEqual(sent);
    expect((await refusal(getAnyDraft, p.rest, { draft_id: id })).code).toBe("NOT_FOUND");
    const gone = await call(deleteDraft, p.rest, { inbox_id: a.id, draft_id: id });
    expect(gone).toEqual({ draft_id: id, deleted: false });
  });
});

describe("scheduled sends", () => {
  it("sends a scheduled draft at its time, once", async () => {
    const d = await call(createDraft, p.mcp, { inboxId: a.id, to: [b.address], subject: "At nine", text: "x", sendAt: hoursAhead(1) });
    const db = await getDb();
    await drainJobs();
    expect(await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id))).toHaveLength(1);
    expect(await dueNow(d.draft_id)).toBe(1);
    await drainJobs();
    expect(await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id))).toHaveLength(0);
    const [out] = await db.select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id));
    expect(out).toMatchObject({ subject: "At nine", sendStatus: "sent", mailboxId: a.id });
    expect(out.labels).not.toContain("scheduled");
    expect(
      await db
        .select()
        .from(mailMessages)
        .where(and(eq(mailMessages.mailboxId, b.id), eq(mailMessages.subject, "At nine"))),
    ).toHaveLength(1);
  });

  it("rescheduling, unscheduling and deleting cancel the earlier schedule", async () => {
    const db = await getDb();
    const sentCount = async (subject: string) =>
      (
        await db
          .select()
          .from(mailMessages)
          .where(and(eq(mailMessages.mailboxId, a.id), eq(mailMessages.subject, subject)))
      ).length;

    const moved = await call(createDraft, p.mcp, { inboxId: a.id, to: [b.address], subject: "Moved", text: "x", sendAt: hoursAhead(1) });
    await call(updateDraft, p.mcp, { inboxId: a.id, draftId: moved.draft_id, sendAt: hoursAhead(5) });
    expect(await dueNow(moved.draft_id, 1)).toBe(1);
    await drainJobs();
    expect(await sentCount("Moved")).toBe(0);
    const [still] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, moved.draft_id));
    expect(still).toMatchObject({ sendStatus: "scheduled", version: 2 });
    expect(await dueNow(moved.draft_id, 2)).toBe(1);
    await drainJobs();
    expect(await sentCount("Moved")).toBe(1);

    const off = await call(createDraft, p.mcp, { inboxId: a.id, to: [b.address], subject: "Off", text: "x", sendAt: hoursAhead(1) });
    await call(updateDraft, p.mcp, { inboxId: a.id, draftId: off.draft_id, sendAt: null });
    await dueNow(off.draft_id);
    await drainJobs();
    expect(await sentCount("Off")).toBe(0);
    expect((await call(getDraft, p.mcp, { inboxId: a.id, draftId: off.draft_id })).send_status).toBeNull();

    const deleted = await call(createDraft, p.mcp, { inboxId: a.id, to: [b.address], subject: "Deleted", text: "x", sendAt: hoursAhead(1) });
    expect(await call(deleteDraft, p.mcp, { inboxId: a.id, draftId: deleted.draft_id })).toEqual({ draft_id: deleted.draft_id, deleted: true });
    expect(await call(deleteDraft, p.mcp, { inboxId: a.id, draftId: deleted.draft_id })).toEqual({ draft_id: deleted.draft_id, deleted: false });
    await dueNow(deleted.draft_id);
    await drainJobs();
    expect(await sentCount("Deleted")).toBe(0);
  });

  it("a send refused at its time leaves the draft failed with the reason; an edit makes it ordinary again", async () => {
    const box = await seedMailbox(p.project.id);
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Blocked later", text: "x", sendAt: hoursAhead(1) });
    const db = await getDb();
    await call(createListEntryTool, p.mcp, { inboxId: box.id, direction: "send", type: "block", entry: b.address });
    await dueNow(d.draft_id);
    await drainJobs();
    const failed = await call(getDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id });
    expect(failed).toMatchObject({ send_status: "failed", labels: [] });
    expect(failed.send_reason).toContain(b.address);
    expect(await db.select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id))).toHaveLength(0);
    const edited = await call(updateDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id, to: [a.address] });
    expect(edited).toMatchObject({ send_status: null, send_reason: null });
  });

  it("a scheduled draft of an inbox in approval mode waits for the owner when its time comes", async () => {
    const box = await seedMailbox(p.project.id);
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Needs ok", text: "x", sendAt: hoursAhead(1) });
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    await dueNow(d.draft_id);
    await drainJobs();
    const [row] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id));
    expect(row.sendStatus).toBe("pending_approval");
    expect(row.labels).toEqual(["pending_approval"]);
    const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, row.approvalRequestId!));
    expect(req).toMatchObject({ status: "pending", action: "send_draft" });
  });

  it("the owner's own scheduled draft is sent at its time even in approval mode (the owner set the policy)", async () => {
    const box = await seedMailbox(p.project.id);
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Owner's own", text: "x", sendAt: hoursAhead(1) });
    const db = await getDb();
    // As the dashboard's compose writes it: no key.
    await db.update(mailDrafts).set({ keyId: null }).where(eq(mailDrafts.id, d.draft_id));
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    await dueNow(d.draft_id);
    await drainJobs();
    expect(await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id))).toHaveLength(0);
    expect(await db.select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id))).toHaveLength(1);
  });

  it("a scheduled draft of an inbox deleted meanwhile fails instead of sending", async () => {
    const box = await seedMailbox(p.project.id);
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Orphan", text: "x", sendAt: hoursAhead(1) });
    const db = await getDb();
    await db.update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, box.id));
    await dueNow(d.draft_id);
    await drainJobs();
    const [row] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id));
    expect(row).toMatchObject({ sendStatus: "failed", sendReason: expect.stringContaining("inbox was deleted") });
    expect(await db.select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id))).toHaveLength(0);
  });
});

describe("reply and forward drafts", () => {
  it("a reply draft derives subject, recipients and threading, and stays in the thread once sent", async () => {
    const original = await receiveInA({ subject: "Re: Budget", messageId: `<orig-${newId("x")}@sender.test>` });
    const d = await call(createDraft, p.mcp, { inboxId: a.id, inReplyTo: original.id, text: "Agreed." });
    expect(d).toMatchObject({
      kind: "reply",
      subject: "Re: Budget",
      to: [b.address],
      cc: [],
      thread_id: original.threadId,
      in_reply_to: original.rfcMessageId,
    });
    expect(d.references[d.references.length - 1]).toBe(original.rfcMessageId);
    // The RFC Message-ID works as well as the msg_ id.
    const byRfc = await call(createDraft, p.mcp, { inboxId: a.id, inReplyTo: `<${original.rfcMessageId}>`, text: "Same." });
    expect(byRfc.thread_id).toBe(original.threadId);
    await call(deleteDraft, p.mcp, { inboxId: a.id, draftId: byRfc.draft_id });

    const sent = await call(sendDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
    expect(sent.thread_id).toBe(original.threadId);
    await drainJobs();
    const db = await getDb();
    const [mine] = await db.select().from(mailMessages).where(eq(mailMessages.id, sent.message_id));
    expect(mine).toMatchObject({ threadId: original.threadId, inReplyTo: original.rfcMessageId, inReplyToMessageId: original.id, sendStatus: "sent" });
    expect(mine.references).toContain(original.rfcMessageId);
    const [arrived] = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.mailboxId, b.id), eq(mailMessages.rfcMessageId, mine.rfcMessageId!)));
    expect(arrived).toMatchObject({ subject: "Re: Budget", inReplyTo: original.rfcMessageId });
    expect(arrived.references).toContain(original.rfcMessageId);
  });

  it("a reply draft whose thread was erased since starts a new thread, still citing the original, sent now or at its time", async () => {
    const db = await getDb();
    const originals = [await receiveInA({ subject: "Erased now" }), await receiveInA({ subject: "Erased later" })];
    const now = await call(createDraft, p.mcp, { inboxId: a.id, inReplyTo: originals[0].id, text: "Still replying." });
    const later = await call(createDraft, p.mcp, { inboxId: a.id, inReplyTo: originals[1].id, text: "Later.", sendAt: hoursAhead(1) });
    for (const o of originals) expect(await call(deleteMessage, p.rest, { inbox_id: a.id, message_id: o.id })).toMatchObject({ thread_deleted: true });

    // Before: an internal error ("thread … no longer exists"), and the scheduled one's job failing and retrying.
    const sent = await call(sendDraft, p.mcp, { inboxId: a.id, draftId: now.draft_id });
    await dueNow(later.draft_id);
    await drainJobs();
    const mine = await db
      .select()
      .from(mailMessages)
      .where(inArray(mailMessages.draftId, [now.draft_id, later.draft_id]));
    expect(mine).toHaveLength(2);
    for (const [i, m] of mine
      .sort((x, y) => x.subject!.localeCompare(y.subject!))
      .reverse()
      .entries()) {
      expect(m.threadId).not.toBe(originals[i].threadId);
      expect(m).toMatchObject({ sendStatus: "sent", inReplyToMessageId: null, references: expect.arrayContaining([originals[i].rfcMessageId]) });
    }
    expect(mine.find((m) => m.draftId === now.draft_id)?.threadId).toBe(sent.thread_id);
  });

  it("reply-all adds the original's to and cc without this inbox; Reply-To wins over From", async () => {
    const c = await seedMailbox(p.project.id);
    const original = await receiveInA({ subject: "Team", cc: c.address, replyTo: "list@lists.test" });
    const d = await call(createDraft, p.mcp, { inboxId: a.id, inReplyTo: original.id, replyAll: true, text: "All of you." });
    expect(d.to).toEqual(["list@lists.test"]);
    expect(d.cc).toEqual([c.address]);
    expect(d.subject).toBe("Re: Team");
  });

  it("a forward draft quotes the original and keeps its attachments by blob, and may wait for recipients", async () => {
    const fx = await seedReceivedMail(p.project.id, a.id);
    const d = await call(createDraft, p.mcp, { inboxId: a.id, forwardOf: fx.message, text: "FYI" });
    expect(d).toMatchObject({ kind: "forward", subject: "Fwd: Quarterly numbers", to: [], thread_id: null });
    expect(d.text).toContain("FYI");
    expect(d.text).toContain("Forwarded message");
    expect(d.text).toContain("The numbers are attached.");
    expect(d.attachments.map((f: { filename: string }) => f.filename)).toEqual(["q3.csv"]);
    const db = await getDb();
    const [orig] = await db.select().from(mailAttachments).where(eq(mailAttachments.id, fx.attachment));
    const [kept] = await db.select().from(mailAttachments).where(eq(mailAttachments.id, d.attachments[0].attachment_id));
    expect(kept.blobKey).toBe(orig.blobKey);
    const noOne = await refusal(sendDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
    expect(noOne.code).toBe("validation_error");
    expect((noOne.details as Array<{ field: string }>)[0].field).toBe("to");
    await call(updateDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id, to: [b.address] });
    const sent = await call(sendDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
    await drainJobs();
    const files = await db.select().from(mailAttachments).where(eq(mailAttachments.messageId, sent.message_id));
    expect(files.map((f) => f.blobKey)).toEqual([orig.blobKey]);
  });
});

describe("draft files", () => {
  it("deleting a draft or removing a file trashes its own blobs, never a forward's originals", async () => {
    const db = await getDb();
    const trashed = async (key: string) => (await db.select().from(diskTrash).where(eq(diskTrash.blobKey, key))).length;
    const blobOf = async (id: string) => (await db.select().from(mailAttachments).where(eq(mailAttachments.id, id)))[0].blobKey;
    const fx = await seedReceivedMail(p.project.id, a.id);
    const d = await call(createDraft, p.mcp, {
      inboxId: a.id,
      forwardOf: fx.message,
      attachments: [
        { filename: "own.txt", contentType: "text/plain", content: b64("own bytes\n") },
        { filename: "gone.txt", contentType: "text/plain", content: b64("removed bytes\n") },
      ],
    });
    const byName = (n: string) => d.attachments.find((f: { filename: string }) => f.filename === n).attachment_id;
    const [own, gone, kept] = [await blobOf(byName("own.txt")), await blobOf(byName("gone.txt")), await blobOf(byName("q3.csv"))];
    await call(updateDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id, removeAttachments: [byName("gone.txt")] });
    expect(await trashed(gone)).toBe(1);
    expect(await trashed(own)).toBe(0);
    await call(deleteDraft, p.mcp, { inboxId: a.id, draftId: d.draft_id });
    expect(await trashed(own)).toBe(1);
    expect(await trashed(kept)).toBe(0);
  });
});

describe("send_draft in approval mode", () => {
  it("answers approval_required naming the draft, freezes it, and delete_draft withdraws the request", async () => {
    const box = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Approve me", text: "x" });
    const err = await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id });
    expect(err.code).toBe("approval_required");
    expect(err.message).toContain(d.draft_id);
    expect(err.fix).toContain(d.draft_id);
    const pending = await call(getDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id });
    expect(pending.send_status).toBe("pending_approval");
    const [row] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id));
    const before = await draftWrites(p.project.id);
    expect((await refusal(updateDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id, subject: "Sneaky" })).code).toBe("CONFLICT");
    expect((await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).code).toBe("CONFLICT");
    expect(await draftWrites(p.project.id)).toEqual(before);

    expect(await call(deleteDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).toEqual({ draft_id: d.draft_id, deleted: true });
    const [req] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, row.approvalRequestId!));
    expect(req.status).toBe("denied");
    expect(req.comment).toContain(d.draft_id);
    // The request's settle has nothing left to do.
    expect(await settleDraftApproval(db, { ...req, status: "approved" })).toBe("none");
    expect(await db.select().from(mailMessages).where(eq(mailMessages.draftId, d.draft_id))).toHaveLength(0);
  });

  /** A fresh inbox in approval mode. */
  async function approvalInbox() {
    const box = await seedMailbox(p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    return box;
  }
  /** A draft of `box` that send_draft held for the owner: its row, which names the approval request. */
  async function heldDraft(box: { id: string }, subject: string, text = "x") {
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject, text });
    expect((await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).code).toBe("approval_required");
    const [row] = await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id));
    return row as typeof row & { approvalRequestId: string };
  }
  const approveAsOwner = async (requestId: string) =>
    (await getDb()).transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId, verdict: { outcome: "approve" } }));
  const requestOf = async (draft: { approvalRequestId: string }) =>
    (await (await getDb()).select().from(approvalRequests).where(eq(approvalRequests.id, draft.approvalRequestId)))[0];
  const draftRow = async (id: string) => (await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, id)))[0];
  const messagesOf = async (...draftIds: string[]) => (await getDb()).select().from(mailMessages).where(inArray(mailMessages.draftId, draftIds));

  it("the owner's approval sends exactly the held draft, which is then gone", async () => {
    const box = await approvalInbox();
    const row = await heldDraft(box, "Approved one", "as shown");
    await approveAsOwner(row.approvalRequestId);
    expect(await draftRow(row.id)).toBeUndefined();
    await drainJobs();
    const [out] = await messagesOf(row.id);
    expect(out).toMatchObject({ subject: "Approved one", sendStatus: "sent", mailboxId: box.id });
    expect(out.labels).not.toContain("pending_approval");
  });

  it("an approval the quota refuses by now leaves the draft failed and nothing queued, though the decision commits", async () => {
    const box = await approvalInbox();
    const row = await heldDraft(box, "Over the quota");
    const { messages, deliveries, attachments } = await draftWrites(p.project.id);
    const quota = envSettings("EMAIL_DAILY_");
    quota.set({ EMAIL_DAILY_LIMIT: "0" });
    try {
      await approveAsOwner(row.approvalRequestId);
    } finally {
      quota.restore();
    }
    // The quota is the send's last write: the message and its deliveries were queued before it refused.
    expect(await draftWrites(p.project.id)).toMatchObject({ messages, deliveries, attachments });
    expect(await messagesOf(row.id)).toHaveLength(0);
    expect(await call(getDraft, p.mcp, { inboxId: box.id, draftId: row.id })).toMatchObject({
      send_status: "failed",
      send_reason: expect.stringContaining("more than the project has left this day"),
    });
    expect((await requestOf(row)).status).toBe("approved");
  });

  it("delete_inbox withdraws its held drafts' requests: closed for the owner, the drafts rejected, nothing sent", async () => {
    const box = await approvalInbox();
    const held = [await heldDraft(box, "Held one"), await heldDraft(box, "Held two")];
    await call(deleteInbox, p.mcp, { inboxId: box.id });
    const why = `Withdrawn: inbox ${box.address} was deleted before a decision.`;
    for (const draft of held) {
      expect(await requestOf(draft)).toMatchObject({ status: "denied", comment: why });
      expect(await draftRow(draft.id)).toMatchObject({ sendStatus: "rejected", sendReason: why });
      // The owner's approval (from an email or Telegram message sent before) finds it decided and sends nothing.
      await expect(approveAsOwner(draft.approvalRequestId)).rejects.toThrow(/already decided/);
    }
    await drainJobs();
    expect(await messagesOf(...held.map((d) => d.id))).toHaveLength(0);
  });

  it("delete_inbox expires a held draft's request already past its expiry, rather than withdrawing it", async () => {
    const box = await approvalInbox();
    const row = await heldDraft(box, "Overdue");
    const expiresAt = new Date(Date.now() - 3_600_000);
    await (await getDb()).update(approvalRequests).set({ expiresAt }).where(eq(approvalRequests.id, row.approvalRequestId));
    await call(deleteInbox, p.mcp, { inboxId: box.id });
    // Nothing is decided after expires_at, a withdrawal included: the request says it expired, and when.
    expect(await requestOf(row)).toMatchObject({ status: "expired", comment: null, decidedAt: expiresAt });
    expect(await draftRow(row.id)).toMatchObject({ sendStatus: "rejected", sendReason: "Nobody decided before the approval request expired." });
  });

  it("an approval that finds the inbox deleted after all sends nothing from the freed address", async () => {
    const box = await approvalInbox();
    const row = await heldDraft(box, "Raced a delete");
    // As if the decision read the request before delete_inbox withdrew it: the mailbox is gone, the request pending.
    await (await getDb()).update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, box.id));
    await approveAsOwner(row.approvalRequestId);
    expect(await draftRow(row.id)).toMatchObject({ sendStatus: "failed", sendReason: "Approved, but its inbox was deleted." });
    expect(await messagesOf(row.id)).toHaveLength(0);
  });

  it("labels a held draft pending_approval, so list_drafts finds it, until the owner decides", async () => {
    const box = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, box.id));
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Held", text: "x", labels: ["q4"] });
    await call(createDraft, p.mcp, { inboxId: box.id, to: [b.address], subject: "Not held", text: "x" });
    expect((await refusal(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).code).toBe("approval_required");
    const held = await call(listDrafts, p.mcp, { inboxId: box.id, labels: ["pending_approval"] });
    expect(held.drafts.map((x: { draft_id: string; labels: string[] }) => [x.draft_id, x.labels])).toEqual([[d.draft_id, ["q4", "pending_approval"]]]);
    const [row] = await db.select().from(mailDrafts).where(eq(mailDrafts.id, d.draft_id));
    await db.transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId: row.approvalRequestId!, verdict: { outcome: "deny", comment: "No." } }));
    expect(await call(getDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id })).toMatchObject({ send_status: "rejected", labels: ["q4"] });
    expect((await call(listDrafts, p.mcp, { inboxId: box.id, labels: ["pending_approval"] })).drafts).toEqual([]);
  });
});
