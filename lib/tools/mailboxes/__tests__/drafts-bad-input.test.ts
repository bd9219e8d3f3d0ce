import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { allScopes } from "@/lib/keys/scopes";
import { seedKey } from "@/lib/testing/seed";
import { seedMailbox, seedReceivedMail } from "@/lib/testing/mail-fixture";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { sendDraft } from "@/lib/tools/mailboxes/send-draft";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";
import { draftWrites, hoursAhead } from "./draft-test-helpers";
import { actorOf, call, projectWithKey, refusal, refusedFields } from "./inbox-test-helpers";

let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Awaited<ReturnType<typeof seedMailbox>>;
let other: Awaited<ReturnType<typeof seedMailbox>>;
let message: string;
let elsewhere: string;
let draftId: string;

beforeAll(async () => {
  p = await projectWithKey("Draft bad input");
  box = await seedMailbox(p.project.id);
  other = await seedMailbox(p.project.id);
  message = (await seedReceivedMail(p.project.id, box.id)).message;
  elsewhere = (await seedReceivedMail(p.project.id, other.id)).message;
  draftId = (await call(createDraft, p.mcp, { inboxId: box.id, to: [other.address], subject: "Base", text: "x" })).draft_id;
});

/** The call is refused with this code (and these fields, for validation errors), and writes nothing. */
async function refusedCleanly(tool: Parameters<typeof refusal>[0], args: Record<string, unknown>, code: string, fields?: string[], actor = p.mcp) {
  const before = await draftWrites(p.project.id);
  const err = await refusal(tool, actor, args);
  expect(err.code, err.message).toBe(code);
  if (fields) expect((err.details as Array<{ field: string }>).map((d) => d.field)).toEqual(fields);
  expect(await draftWrites(p.project.id)).toEqual(before);
  return err;
}

describe("create_draft refuses, writing nothing", () => {
  it("inReplyTo with forwardOf / replyAll without inReplyTo / replyAll with to, cc or bcc", async () => {
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: message, forwardOf: message }, "validation_error", ["forwardOf"]);
    await refusedCleanly(createDraft, { inboxId: box.id, replyAll: true, text: "x" }, "validation_error", ["replyAll"]);
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: message, replyAll: true, to: [other.address] }, "validation_error", ["replyAll"]);
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: message, replyAll: true, bcc: [other.address] }, "validation_error", ["replyAll"]);
  });

  it("sendAt in the past, more than 90 days ahead, or in words", async () => {
    for (const sendAt of [new Date(Date.now() - 60_000).toISOString(), hoursAhead(91 * 24), "tomorrow", "2026-12-24"]) {
      await refusedCleanly(createDraft, { inboxId: box.id, to: [other.address], subject: "S", sendAt }, "validation_error", ["sendAt"]);
    }
    // REST names the field as REST spells it.
    await refusedCleanly(createDraft, { inbox_id: box.id, send_at: "tomorrow" }, "validation_error", ["send_at"], p.rest);
  });

  it("an inReplyTo or forwardOf that does not resolve in this inbox is NOT_FOUND, never a new thread", async () => {
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: "msg_doesnotexist", text: "x" }, "NOT_FOUND");
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: "<nobody@nowhere.test>", text: "x" }, "NOT_FOUND");
    await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: elsewhere, text: "x" }, "NOT_FOUND");
    const err = await refusedCleanly(createDraft, { inboxId: box.id, forwardOf: elsewhere, to: [other.address] }, "NOT_FOUND");
    expect(err.message).toContain("forwardOf");
  });

  it("bad recipients, subject and attachments name their field", async () => {
    await refusedCleanly(createDraft, { inboxId: box.id, to: ["Bob <b@x.com>"] }, "validation_error", ["to.0"]);
    await refusedCleanly(createDraft, { inboxId: box.id, cc: ["a@b.c, d@e.f"] }, "validation_error", ["cc.0"]);
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@x.test`);
    expect(await refusedFields(createDraft, p.mcp, { inboxId: box.id, to: many.slice(0, 30), cc: many.slice(30) })).toContain("to");
    await refusedCleanly(createDraft, { inboxId: box.id, subject: "Hi\r\nBcc: a@evil.test" }, "validation_error", ["subject"]);
    await refusedCleanly(createDraft, { inboxId: box.id, attachments: [{ filename: "a", content: "QUJD", path: "x.txt" }] }, "validation_error", [
      "attachments.0",
    ]);
    await refusedCleanly(createDraft, { inboxId: box.id, attachments: [{ path: "../../x" }] }, "validation_error", ["attachments.0"]);
    await refusedCleanly(createDraft, { inboxId: box.id, attachments: [{ path: "nope/missing.txt" }] }, "NOT_FOUND");
  });

  it("a missing conditional permission is missing_permission naming the scope", async () => {
    const noSend = await seedKey(
      p.project.id,
      allScopes.filter((s) => s !== "draft_send"),
      "no draft_send",
    );
    const noRead = await seedKey(
      p.project.id,
      allScopes.filter((s) => s !== "message_read"),
      "no message_read",
    );
    const asNoSend = actorOf(noSend.key, p.project.name, "mcp");
    const asNoRead = actorOf(noRead.key, p.project.name, "mcp");
    const e1 = await refusedCleanly(createDraft, { inboxId: box.id, to: [other.address], sendAt: hoursAhead(1) }, "missing_permission", undefined, asNoSend);
    expect(e1.message).toContain("draft_send");
    const e2 = await refusedCleanly(createDraft, { inboxId: box.id, inReplyTo: message }, "missing_permission", undefined, asNoRead);
    expect(e2.message).toContain("message_read");
    const e3 = await refusedCleanly(createDraft, { inboxId: box.id, forwardOf: message }, "missing_permission", undefined, asNoRead);
    expect(e3.message).toContain("message_read");
    const e4 = await refusedCleanly(updateDraft, { inboxId: box.id, draftId, sendAt: hoursAhead(1) }, "missing_permission", undefined, asNoSend);
    expect(e4.message).toContain("draft_send");
    // Without those arguments the same keys may create and change drafts.
    await call(updateDraft, asNoSend, { inboxId: box.id, draftId, sendAt: null });
  });
});

describe("update_draft and send_draft refuse, writing nothing", () => {
  it("sendAt in words / unknown attachment to remove / an unknown draft", async () => {
    await refusedCleanly(updateDraft, { inboxId: box.id, draftId, sendAt: "tomorrow" }, "validation_error", ["sendAt"]);
    await refusedCleanly(updateDraft, { inboxId: box.id, draftId, removeAttachments: ["att_nope"] }, "NOT_FOUND");
    await refusedCleanly(updateDraft, { inboxId: box.id, draftId: "drf_nope", subject: "x" }, "NOT_FOUND");
    await refusedCleanly(updateDraft, { inboxId: box.id, draftId, to: ["not an address"] }, "validation_error", ["to.0"]);
  });

  it("a draft waiting for approval cannot change or be sent again (CONFLICT)", async () => {
    const held = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, held.id));
    const d = await call(createDraft, p.mcp, { inboxId: held.id, to: [other.address], subject: "Held", text: "x" });
    expect((await refusal(sendDraft, p.mcp, { inboxId: held.id, draftId: d.draft_id })).code).toBe("approval_required");
    await refusedCleanly(updateDraft, { inboxId: held.id, draftId: d.draft_id, text: "changed" }, "CONFLICT");
    await refusedCleanly(updateDraft, { inboxId: held.id, draftId: d.draft_id, sendAt: null }, "CONFLICT");
    await refusedCleanly(sendDraft, { inboxId: held.id, draftId: d.draft_id }, "CONFLICT");
  });

  it("send_draft twice: NOT_FOUND the second time, unless the same idempotencyKey replays the first result", async () => {
    const d = await call(createDraft, p.mcp, { inboxId: box.id, to: [other.address], subject: "Twice", text: "x" });
    const first = await call(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id, idempotencyKey: "twice-1" });
    expect(await call(sendDraft, p.mcp, { inboxId: box.id, draftId: d.draft_id, idempotencyKey: "twice-1" })).toEqual(first);
    await refusedCleanly(sendDraft, { inboxId: box.id, draftId: d.draft_id }, "NOT_FOUND");
  });

  it("a read-only inbox refuses send_draft with missing_permission; a send-blocked recipient is POLICY_DENIED", async () => {
    const ro = await seedMailbox(p.project.id);
    const d = await call(createDraft, p.mcp, { inboxId: ro.id, to: [other.address], subject: "RO", text: "x" });
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "read_only" }).where(eq(mailboxes.id, ro.id));
    const err = await refusedCleanly(sendDraft, { inboxId: ro.id, draftId: d.draft_id }, "missing_permission");
    expect(err.fix).toContain("read-only");
    const blocked = await call(createDraft, p.mcp, { inboxId: box.id, to: ["blocked@spam.test"], subject: "Blocked", text: "x" });
    await call(createListEntryTool, p.mcp, { inboxId: box.id, direction: "send", type: "block", entry: "spam.test" });
    const denied = await refusedCleanly(sendDraft, { inboxId: box.id, draftId: blocked.draft_id }, "POLICY_DENIED");
    expect(denied.details).toMatchObject({ field: "to.0", entry: "spam.test" });
  });
});
