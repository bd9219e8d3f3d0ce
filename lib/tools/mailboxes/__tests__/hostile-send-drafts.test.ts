import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { filePut } from "@/lib/tools/disk/file-put";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";
import { draftWrites, dueNow, hoursAhead } from "./draft-test-helpers";
import { call, refusal, refusedFields } from "./inbox-test-helpers";
import { relaySinkFixture } from "./relay-sink-fixture";
import { otherKey } from "./mail-actors";

/**
 * Drafts as a hostile or careless agent uses them: a key that may edit but not send must not redirect a scheduled
 * send, and the References a plain draft is given must be what goes out (or be refused), never silently dropped.
 * Outside recipients go to a relay sink (a real smtp-server).
 */
const f = relaySinkFixture("Hostile drafts");

const draftRow = async (id: string) => (await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, id)))[0];
const arrivedFor = (address: string) => f.sink.received.filter((m) => m.to.includes(address));

describe("a scheduled draft and a key without draft_send", () => {
  it("refuses to change a scheduled draft (missing_permission naming draft_send), and the scheduled send goes out as scheduled", async () => {
    const scheduled = await call(createDraft, f.p.mcp, {
      inboxId: f.box.id,
      to: ["planned@example.com"],
      subject: "Plan",
      text: "As agreed.",
      sendAt: hoursAhead(1),
    });
    const editor = await otherKey(f.p, ["draft_read", "draft_update"]);
    const before = await draftWrites(f.p.project.id);

    const err = await refusal(updateDraft, editor.actor("mcp"), { inboxId: f.box.id, draftId: scheduled.draft_id, to: ["attacker@example.com"] });
    expect(err.code).toBe("missing_permission");
    expect(err.message).toContain("draft_send");
    expect(err.details).toEqual({ scopes: ["draft_send"] });
    // A label-only change reschedules the same way: refused too.
    expect((await refusal(updateDraft, editor.actor("rest"), { inbox_id: f.box.id, draft_id: scheduled.draft_id, add_labels: ["mine"] })).code).toBe(
      "missing_permission",
    );
    expect(await draftWrites(f.p.project.id)).toEqual(before);

    await dueNow(scheduled.draft_id);
    await drainJobs();
    expect(arrivedFor("attacker@example.com")).toHaveLength(0);
    expect(arrivedFor("planned@example.com")).toHaveLength(1);
  });

  it("lets that key unschedule the draft in the same call (sendAt: null): nothing is sent at the old time", async () => {
    const scheduled = await call(createDraft, f.p.mcp, { inboxId: f.box.id, to: ["later@example.com"], subject: "Later", text: "t", sendAt: hoursAhead(2) });
    const editor = await otherKey(f.p, ["draft_read", "draft_update"]);
    const out = await call(updateDraft, editor.actor("mcp"), { inboxId: f.box.id, draftId: scheduled.draft_id, to: ["other@example.com"], sendAt: null });
    expect(out).toMatchObject({ to: ["other@example.com"], send_status: null, send_at: null });
    expect(out.labels).not.toContain("scheduled");
    await dueNow(scheduled.draft_id);
    await drainJobs();
    expect(arrivedFor("other@example.com")).toHaveLength(0);
    expect(arrivedFor("later@example.com")).toHaveLength(0);
    expect(await draftRow(scheduled.draft_id)).toMatchObject({ sendStatus: null, to: ["other@example.com"] });
  });
});

describe("create_draft references", () => {
  it("sends a plain draft's references in its References header, with or without angle brackets", async () => {
    const draft = await call(createDraft, f.p.mcp, {
      inboxId: f.box.id,
      to: ["refs@example.com"],
      subject: "Following up",
      text: "See the earlier thread.",
      references: ["<first@example.com>", " second@example.com "],
    });
    expect(draft.references).toEqual(["first@example.com", "second@example.com"]);
    await call(sendDraft, f.p.mcp, { inboxId: f.box.id, draftId: draft.draft_id });
    await drainJobs();
    const [sent] = arrivedFor("refs@example.com");
    expect(sent.raw.toString()).toMatch(/\r\nReferences: <first@example\.com> <second@example\.com>\r\n/);
  });

  it.each([
    ["a header smuggled after the id", "a@b>\r\nBcc: evil@example.com"],
    ["a space inside", "two words@example.com"],
    ["an angle bracket inside", "<a<b@example.com>"],
  ])("refuses %s, naming references.N, and writes nothing", async (_what, bad) => {
    const before = await draftWrites(f.p.project.id);
    const args = { inboxId: f.box.id, to: ["refs@example.com"], subject: "S", text: "t", references: ["ok@example.com", bad] };
    expect(await refusedFields(createDraft, f.p.mcp, args)).toEqual(["references.1"]);
    expect(await draftWrites(f.p.project.id)).toEqual(before);
  });
});

describe("attachments by path and a key without disk", () => {
  it("refuses a path (missing_permission naming disk) in every send and draft tool, and sends the same file once the key has disk", async () => {
    await call(filePut, f.p.mcp, { path: "private/salaries.csv", content_base64: Buffer.from("name,pay\n").toString("base64"), content_type: "text/csv" });
    const sender = await otherKey(f.p, ["message_send", "draft_create", "draft_update", "draft_read"], f.box.id);
    const attachments = [{ path: "private/salaries.csv" }];
    const { draft_id } = await call(createDraft, f.p.mcp, { inboxId: f.box.id, to: ["me@example.com"], subject: "d", text: "t" });
    const before = await draftWrites(f.p.project.id);
    for (const [tool, args] of [
      [sendMessage, { inboxId: f.box.id, to: ["me@example.com"], subject: "files", text: "t", attachments }],
      [createDraft, { inboxId: f.box.id, to: ["me@example.com"], subject: "files", text: "t", attachments }],
      [updateDraft, { inboxId: f.box.id, draftId: draft_id, addAttachments: attachments }],
    ] as const) {
      const err = await refusal(tool, sender.actor("mcp"), args);
      expect(err.code, tool.name).toBe("missing_permission");
      expect(err.message, tool.name).toContain("disk");
    }
    expect(await draftWrites(f.p.project.id)).toEqual(before);
    // Inline bytes need nothing more, and with disk the path is read.
    const inline = [{ filename: "a.txt", content: Buffer.from("hello").toString("base64") }];
    expect(
      await call(sendMessage, sender.actor("mcp"), { inboxId: f.box.id, to: ["me@example.com"], subject: "inline", text: "t", attachments: inline }),
    ).toMatchObject({
      send_status: "queued",
    });
    const withDisk = await otherKey(f.p, ["message_send", "disk"], f.box.id);
    expect(
      await call(sendMessage, withDisk.actor("mcp"), { inboxId: f.box.id, to: ["me@example.com"], subject: "by path", text: "t", attachments }),
    ).toMatchObject({
      send_status: "queued",
    });
  });
});
