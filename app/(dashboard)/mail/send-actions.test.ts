import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { composeDraftDef, composeSendDef, deleteDraftDef, sendDraftNowDef, setSendPolicyDef, updateDraftDef } from "@/components/mailboxes/send-action-defs";
import { decideAsOwner } from "@/lib/approvals/decide-as-owner";
import type { OwnerContext } from "@/lib/auth/current-owner";
import { type ActionContext, type ActionLedger, runOwnerAction } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { ledgerEntries } from "@/lib/db/schema/ledger";
import { diskTrash } from "@/lib/db/schema/disk";
import { mailAttachments, mailboxes, mailMessages } from "@/lib/db/schema/mail";
import { mailDrafts } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";
import { ownerDraftHash } from "@/lib/mail/drafts/owner-draft-hash";
import { countDraftsAwaitingApproval, ownerGetDraft, ownerListDrafts } from "@/lib/mail/drafts/owner-list-drafts";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { setSendPolicy } from "@/lib/mail/mailboxes/set-send-policy";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { OWNER_EMAIL, OWNER_PASSWORD } from "@/lib/testing/seed";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { call, projectWithKey, refusal } from "@/lib/tools/mailboxes/__tests__/inbox-test-helpers";
import { createDraft } from "@/lib/tools/mailboxes/create-draft";
import { updateDraft } from "@/lib/tools/mailboxes/update-draft";

// The owner's side of sending through the real action pipeline (runOwnerAction: parse, one transaction, the ledger
// entry) and owner REST: the send policy, compose, and the Drafts screen's changes and decisions.

type Def<S extends z.ZodType, T> = { schema: S; run: (ctx: ActionContext, input: z.output<S>) => Promise<T>; ledger: ActionLedger<z.output<S>> };
const act = <S extends z.ZodType, T>(ctx: OwnerContext, d: Def<S, T>, input: z.input<S>) => runOwnerAction(ctx, d.schema, d.run, d.ledger, input);

let p: Awaited<ReturnType<typeof projectWithKey>>;
let ctx: OwnerContext;
let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  p = await projectWithKey("Owner sending");
  ctx = { owner: p.owner, sessionId: "ses_test", project: p.project, projects: [p.project], actor: p.actor };
  server = await startApiServer();
});
afterAll(() => server.close());

const entries = async (op: string) =>
  (await getDb())
    .select({ subject: ledgerEntries.subject, actorType: ledgerEntries.actorType })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.projectId, p.project.id), eq(ledgerEntries.op, op)));
const policyOf = async (id: string) => (await (await getDb()).select({ p: mailboxes.sendPolicy }).from(mailboxes).where(eq(mailboxes.id, id)))[0].p;
const draftsOf = async (mailboxId: string) => (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.mailboxId, mailboxId));
const sentFrom = async (mailboxId: string) =>
  (await getDb())
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.mailboxId, mailboxId), eq(mailMessages.direction, "outbound")));
const compose = (inboxId: string, fields: Partial<{ to: string[]; cc: string[]; bcc: string[]; subject: string; text: string }> = {}) => ({
  inboxId,
  mode: "new" as const,
  to: [],
  cc: [],
  bcc: [],
  subject: "Hello",
  text: "Hi there.",
  paths: [],
  ...fields,
});

describe("send policy", () => {
  it("is set by the owner in the dashboard, ledgered with the mailbox as subject; a bad value changes nothing", async () => {
    const box = await seedMailbox(p.project.id);
    const res = await act(ctx, setSendPolicyDef, { inboxId: box.address, sendPolicy: "approval" });
    expect(res).toEqual({ ok: true, data: { inboxId: box.id, sendPolicy: "approval" } });
    expect(await policyOf(box.id)).toBe("approval");
    expect(await entries("mail.set_send_policy")).toContainEqual({ subject: box.id, actorType: "owner" });

    const bad = await act(ctx, setSendPolicyDef, { inboxId: box.id, sendPolicy: "anything" as "direct" });
    expect(bad).toMatchObject({ ok: false, fieldErrors: { sendPolicy: expect.any(String) } });
    const missing = await act(ctx, setSendPolicyDef, { inboxId: "nobody@nowhere.example", sendPolicy: "direct" });
    expect(missing.ok).toBe(false);
    expect(await policyOf(box.id)).toBe("approval");
  });

  it("refuses an API key: only the owner sets it", async () => {
    const box = await seedMailbox(p.project.id);
    const db = await getDb();
    const err = await setSendPolicy(db, { actor: p.mcp, inboxId: box.id, sendPolicy: "direct" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("missing_permission");
  });

  it("is set over owner REST with PATCH /owner/inboxes/{inbox_id}/send-policy, and API keys are refused", async () => {
    const box = await seedMailbox(p.project.id);
    const url = `${server.url}/api/v1/owner/inboxes/${box.id}/send-policy`;
    const owner = {
      authorization: `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`,
      "content-type": "application/json",
      "x-brynth-project": p.project.id,
    };
    const res = await fetch(url, { method: "PATCH", headers: owner, body: JSON.stringify({ send_policy: "read_only" }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ inbox_id: box.id, email: box.address, send_policy: "read_only" });
    expect(await policyOf(box.id)).toBe("read_only");

    const bad = await fetch(url, { method: "PATCH", headers: owner, body: JSON.stringify({ send_policy: "sometimes" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("validation_error");
    const withKey = await fetch(url, {
      method: "PATCH",
      headers: { authorization: `Bearer ${p.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ send_policy: "direct" }),
    });
    expect(withKey.status).toBe(401);
    expect(await policyOf(box.id)).toBe("read_only");
  });
});

describe("compose", () => {
  it("sends to a local mailbox through the one send path, ledgered as send_message, even from an approval mailbox", async () => {
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const res = await act(ctx, composeSendDef, compose(from.id, { to: [to.address], subject: "From the owner" }));
    expect(res).toMatchObject({ ok: true, data: { draftId: null, messageId: expect.stringMatching(/^msg_/) } });
    await drainJobs();
    const got = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.mailboxId, to.id));
    expect(got.map((m) => m.subject)).toEqual(["From the owner"]);
    if (res.ok) expect(await entries("send.message")).toContainEqual({ subject: res.data.messageId, actorType: "owner" });
  });

  it("names a bad recipient, refuses no recipients, and writes nothing when it refuses", async () => {
    const from = await seedMailbox(p.project.id);
    const bad = await act(ctx, composeSendDef, compose(from.id, { to: ["Bob <bob@example.com>"] }));
    expect(bad).toMatchObject({ ok: false, fieldErrors: { "to.0": expect.stringContaining("plain") } });
    const none = await act(ctx, composeSendDef, compose(from.id));
    expect(none).toMatchObject({ ok: false, fieldErrors: { to: expect.any(String) } });
    const crlf = await act(ctx, composeSendDef, compose(from.id, { to: ["a@example.com"], subject: "Hi\r\nBcc: x@evil.example" }));
    expect(crlf).toMatchObject({ ok: false, fieldErrors: { subject: expect.any(String) } });
    // A reply that names no message is refused on messageId (found by helper-101: the refusal named no field).
    const reply = await act(ctx, composeSendDef, { ...compose(from.id, { to: ["a@example.com"] }), mode: "reply" });
    expect(reply).toMatchObject({ ok: false, fieldErrors: { messageId: expect.stringContaining("required") } });
    expect(await sentFrom(from.id)).toEqual([]);
  });

  it("saves a draft and schedules one; a sendAt in the past is refused", async () => {
    const from = await seedMailbox(p.project.id);
    const saved = await act(ctx, composeDraftDef, { ...compose(from.id, { to: ["x@example.com"] }), sendAt: null });
    expect(saved).toMatchObject({ ok: true, data: { draftId: expect.stringMatching(/^drf_/), sendAt: null } });
    const at = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await act(ctx, composeDraftDef, { ...compose(from.id, { to: ["x@example.com"], subject: "Later" }), sendAt: at });
    expect(scheduled).toMatchObject({ ok: true, data: { sendAt: at } });
    const past = await act(ctx, composeDraftDef, { ...compose(from.id), sendAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past).toMatchObject({ ok: false, fieldErrors: { sendAt: "Must be in the future." } });
    const drafts = await draftsOf(from.id);
    expect(drafts.map((d) => [d.subject, d.sendStatus, d.keyId]).sort()).toEqual([
      ["Hello", null, null],
      ["Later", "scheduled", null],
    ]);
    const tab = await ownerListDrafts(await getDb(), { projectId: p.project.id, tab: "scheduled", limit: 50 });
    expect(tab.map((d) => d.subject)).toContain("Later");
    // The mail.send_draft job for this version, due at sendAt.
    if (!scheduled.ok) throw new Error(scheduled.error);
    const due = await (await getDb())
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `drf:${scheduled.data.draftId}:1`));
    expect(due.map((j) => [j.kind, j.runAt.toISOString()])).toEqual([["mail.send_draft", at]]);
  });
});

describe("drafts", () => {
  it("shows a held send exactly, approves it once, and tells the second decision it was already decided", async () => {
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const hidden = await seedMailbox(p.project.id);
    const before = await countDraftsAwaitingApproval(await getDb(), p.project.id);
    const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], bcc: [hidden.address], subject: "Held", text: "wait" });
    expect(err.code).toBe("approval_required");
    const draftId = (err.details as { draft_id: string }).draft_id;
    const db = await getDb();
    expect(await countDraftsAwaitingApproval(db, p.project.id)).toBe(before + 1);
    const listed = await ownerListDrafts(db, { projectId: p.project.id, tab: "approval", limit: 50 });
    expect(listed.map((d) => d.id)).toContain(draftId);
    const draft = (await ownerGetDraft(db, { projectId: p.project.id, draftId }))!;
    expect(draft).toMatchObject({ to: [to.address], bcc: [hidden.address], subject: "Held", text: "wait", mailboxAddress: from.address });
    const hash = await ownerDraftHash(db, draft);
    expect(hash.content).toMatch(/^[0-9a-f]{64}$/);
    expect(hash.approved).toBe(hash.content);

    // Frozen while held: no edit, delete or send now.
    for (const [d, input] of [
      [updateDraftDef, { draftId, version: draft.version, subject: "Changed" }],
      [deleteDraftDef, { draftId, version: draft.version }],
      [sendDraftNowDef, { draftId, version: draft.version }],
    ] as const) {
      const res = await act(ctx, d as Def<z.ZodType, unknown>, input);
      expect(res).toMatchObject({ ok: false, error: expect.stringContaining("awaiting approval") });
    }

    const requestId = draft.approvalRequestId!;
    await db.transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId, verdict: { outcome: "approve" } }));
    expect(await ownerGetDraft(db, { projectId: p.project.id, draftId })).toBeNull();
    const second = await db
      .transaction((tx) => decideAsOwner(tx, { actor: p.actor, requestId, verdict: { outcome: "deny", comment: "no" } }))
      .catch((e: unknown) => e);
    expect((second as AppError).message).toMatch(/already decided/);
    await drainJobs();
    expect((await sentFrom(from.id)).map((m) => [m.subject, m.bcc])).toEqual([["Held", [hidden.address]]]);
  });

  it("rejects with the owner's comment: the draft shows under Failed with it", async () => {
    const from = await seedMailbox(p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const to = await seedMailbox(p.project.id);
    const err = await refusal(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Nope", text: "x" });
    const draftId = (err.details as { draft_id: string }).draft_id;
    const db = await getDb();
    const draft = (await ownerGetDraft(db, { projectId: p.project.id, draftId }))!;
    await db.transaction((tx) =>
      decideAsOwner(tx, { actor: p.actor, requestId: draft.approvalRequestId!, verdict: { outcome: "deny", comment: "Wrong customer" } }),
    );
    const failed = await ownerListDrafts(db, { projectId: p.project.id, tab: "failed", limit: 50 });
    expect(failed.find((d) => d.id === draftId)).toMatchObject({ sendStatus: "rejected", sendReason: "Wrong customer" });
  });

  it("edits, reschedules, sends now and deletes an ordinary draft, each ledgered as its draft tool", async () => {
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    const saved = await act(ctx, composeDraftDef, { ...compose(from.id, { to: ["bad@example.com"] }), sendAt: null });
    if (!saved.ok) throw new Error(saved.error);
    const draftId = saved.data.draftId;
    const edited = await act(ctx, updateDraftDef, { draftId, version: 1, to: [to.address], subject: "Edited" });
    expect(edited).toMatchObject({ ok: true, data: { version: 2, sendAt: null } });
    const at = new Date(Date.now() + 7200_000).toISOString();
    expect(await act(ctx, updateDraftDef, { draftId, version: 2, sendAt: at })).toMatchObject({ ok: true, data: { sendAt: at, version: 3 } });
    const [row] = await (await getDb()).select().from(mailDrafts).where(eq(mailDrafts.id, draftId));
    expect(row).toMatchObject({ sendStatus: "scheduled", labels: ["scheduled"] });
    expect(
      await (await getDb())
        .select({ kind: jobs.kind })
        .from(jobs)
        .where(eq(jobs.dedupeKey, `drf:${draftId}:3`)),
    ).toEqual([{ kind: "mail.send_draft" }]);
    const badAddress = await act(ctx, updateDraftDef, { draftId, version: 3, cc: ["a@b.c, d@e.f"] });
    expect(badAddress).toMatchObject({ ok: false, fieldErrors: { "cc.0": expect.any(String) } });

    const sent = await act(ctx, sendDraftNowDef, { draftId, version: 3 });
    expect(sent).toMatchObject({ ok: true, data: { messageId: expect.stringMatching(/^msg_/) } });
    expect(await draftsOf(from.id)).toEqual([]);
    await drainJobs();
    expect((await (await getDb()).select().from(mailMessages).where(eq(mailMessages.mailboxId, to.id))).map((m) => m.subject)).toEqual(["Edited"]);
    expect(await act(ctx, sendDraftNowDef, { draftId, version: 3 })).toMatchObject({ ok: false, error: expect.stringContaining("not found") });

    const other = await act(ctx, composeDraftDef, { ...compose(from.id), sendAt: null });
    if (!other.ok) throw new Error(other.error);
    expect(await act(ctx, deleteDraftDef, { draftId: other.data.draftId, version: 1 })).toEqual({ ok: true, data: { id: other.data.draftId } });
    expect(await draftsOf(from.id)).toEqual([]);
    expect((await entries("update.draft")).length).toBeGreaterThanOrEqual(2);
    expect(await entries("delete.draft")).toContainEqual({ subject: other.data.draftId, actorType: "owner" });
  });

  // The owner's Delete dropped the file rows by cascade and left their bytes in the store for ever (found by helper-112).
  it("deletes a draft's files with it: their bytes go to the trash, as delete_draft's do", async () => {
    const from = await seedMailbox(p.project.id);
    const made = await call(createDraft, p.mcp, {
      inboxId: from.id,
      subject: "With a file",
      attachments: [{ filename: "a.txt", contentType: "text/plain", content: Buffer.from("draft bytes").toString("base64") }],
    });
    const db = await getDb();
    const [file] = await db.select({ blobKey: mailAttachments.blobKey }).from(mailAttachments).where(eq(mailAttachments.draftId, made.draft_id));
    expect(await act(ctx, deleteDraftDef, { draftId: made.draft_id, version: 1 })).toMatchObject({ ok: true });
    expect(await db.select({ blobKey: diskTrash.blobKey }).from(diskTrash).where(eq(diskTrash.blobKey, file.blobKey))).toHaveLength(1);
  });

  it("acts only on the version the owner saw: an agent's later update_draft makes Send now, Edit and Delete CONFLICT", async () => {
    const from = await seedMailbox(p.project.id);
    const seen = await seedMailbox(p.project.id);
    const unseen = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const made = await call(createDraft, p.mcp, { inboxId: from.id, to: [seen.address], subject: "Hello", text: "harmless" });
    const draftId = made.draft_id as string;
    const shown = (await ownerGetDraft(db, { projectId: p.project.id, draftId }))!;
    // After the owner's screen rendered version 1, the agent re-targets the draft.
    await call(updateDraft, p.mcp, { inboxId: from.id, draftId, to: [unseen.address], subject: "Changed", text: "something else" });
    // Before: Send now sent the agent's version as the owner's own send (no hold), Edit put back the old text.
    for (const res of [
      await act(ctx, sendDraftNowDef, { draftId, version: shown.version }),
      await act(ctx, updateDraftDef, { draftId, version: shown.version, subject: "Owner's subject", text: shown.text ?? "" }),
      await act(ctx, deleteDraftDef, { draftId, version: shown.version }),
    ]) {
      expect(res).toMatchObject({ ok: false, error: expect.stringContaining("changed since you opened it (version 2 now, 1 shown)") });
    }
    await drainJobs();
    expect(await sentFrom(from.id)).toEqual([]);
    expect((await draftsOf(from.id))[0]).toMatchObject({ version: 2, subject: "Changed", to: [unseen.address] });
  });

  it("an owner's scheduled draft an agent rewrote goes out as the agent's send: the mailbox's Approval policy holds it", async () => {
    const from = await seedMailbox(p.project.id);
    const meant = await seedMailbox(p.project.id);
    const other = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.update(mailboxes).set({ sendPolicy: "approval" }).where(eq(mailboxes.id, from.id));
    const saved = await act(ctx, composeDraftDef, { ...compose(from.id, { to: [meant.address] }), sendAt: new Date(Date.now() + 3600_000).toISOString() });
    if (!saved.ok) throw new Error(saved.error);
    const { draftId } = saved.data;
    await call(updateDraft, p.mcp, { inboxId: from.id, draftId, to: [other.address], subject: "Agent's", sendAt: new Date(Date.now() + 60_000).toISOString() });
    // The schedule falls due (its job is run now rather than waited for).
    await db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.dedupeKey, `drf:${draftId}:2`));
    await drainJobs();
    // Before: sent to the agent's recipient as the owner's own send, past the Approval policy.
    expect(await sentFrom(from.id)).toEqual([]);
    expect((await draftsOf(from.id))[0]).toMatchObject({ sendStatus: "pending_approval", keyId: p.key.id });
  });

  it("refuses to send now a draft whose inbox was deleted, as its schedule and its approval do, and sends nothing", async () => {
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    const saved = await act(ctx, composeDraftDef, { ...compose(from.id, { to: [to.address], subject: "From a ghost" }), sendAt: null });
    if (!saved.ok) throw new Error(saved.error);
    await (await getDb()).transaction((tx) => deleteMailbox(tx, { actor: p.actor, inboxId: from.id }));
    // Before: sent from the deleted inbox's address, which may be another's by now.
    expect(await act(ctx, sendDraftNowDef, { draftId: saved.data.draftId, version: 1 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("was deleted"),
    });
    expect(await sentFrom(from.id)).toEqual([]);
  });

  it("frames a draft's HTML from /mail-html like a message's: sanitised, sandboxed, this project's draft only", async () => {
    const from = await seedMailbox(p.project.id);
    const saved = await act(ctx, composeDraftDef, { ...compose(from.id), sendAt: null });
    if (!saved.ok) throw new Error(saved.error);
    const db = await getDb();
    await db.update(mailDrafts).set({ html: "<p>Hello <b>owner</b></p><script>window.__pwned = 1</script>" }).where(eq(mailDrafts.id, saved.data.draftId));
    const expires = new Date(Date.now() + 60_000);
    const res = await serveMailHtml(new Request(mailHtmlUrl(p.project.id, saved.data.draftId, expires)));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/^sandbox /);
    const body = await res.text();
    expect(body).toContain("<b>owner</b>");
    expect(body).not.toContain("<script");
    const other = await projectWithKey("Another owner project");
    expect((await serveMailHtml(new Request(mailHtmlUrl(other.project.id, saved.data.draftId, expires)))).status).toBe(410);
  });
});
