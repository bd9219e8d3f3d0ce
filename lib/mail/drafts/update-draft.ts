import { and, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { type DraftSendStatus, mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { draftFiles } from "@/lib/mail/drafts/draft-view";
import { assertEditable, findDraft } from "@/lib/mail/drafts/find-draft";
import { attachToDraft } from "@/lib/mail/drafts/insert-draft";
import { releaseDraftFiles } from "@/lib/mail/drafts/release-draft-files";
import { scheduleDraft } from "@/lib/mail/drafts/schedule-draft";
import { MAX_RECIPIENTS } from "@/lib/mail/outbound/limits";
import { resolveSendAttachments } from "@/lib/mail/send/resolve-send-attachments";
import type { AttachmentInput } from "@/lib/mail/send/attachment-input";

type Nullable<T> = T | null | undefined;

export interface UpdateDraftInput {
  inboxId: string;
  draftId: string;
  to?: string[] | null;
  cc?: string[] | null;
  bcc?: string[] | null;
  replyTo?: string[] | null;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  sendAt?: string | null;
  addAttachments?: AttachmentInput[];
  removeAttachments?: string[];
  addLabels?: string[];
  removeLabels?: string[];
}

/** undefined: unchanged; null: cleared (to []); otherwise the new list. */
const list = (v: Nullable<string[]>, was: string[]) => (v === undefined ? was : (v ?? []));
const text = (v: Nullable<string>, was: string | null) => (v === undefined ? was : v);

/**
 * Changes a draft (update_draft): an omitted field stays, null or [] clears it; the kind and thread never change.
 * Every change raises `version`, so the schedule's job and an approval made for the old content do nothing; a
 * scheduled draft gets a job for its new version. `sendAt: null` unschedules; a new `sendAt` (re)schedules. A
 * draft that failed or was rejected becomes an ordinary draft again once edited. Sending or awaiting approval →
 * CONFLICT, and nothing is written.
 */
export async function updateDraft(db: Executor, o: { actor: Actor; input: UpdateDraftInput }): Promise<MailDraft> {
  const { actor, input } = o;
  const { draft } = await findDraft(db, actor, input.inboxId, input.draftId, { lock: true });
  assertEditable(draft, "be changed");
  const { sendAt, sendStatus } = schedule(draft, input.sendAt);
  // A scheduled draft that stays scheduled gets a job for the new version: the edit decides what goes out, so it
  // is scheduling and needs draft_send (the tool's extraScopes sees only `sendAt`, not the draft's state). Without
  // this, a key that may edit but not send could redirect someone else's scheduled send.
  if (sendStatus === "scheduled" && actor.type === "key" && !actor.scopes.includes("draft_send")) {
    throw new AppError("missing_permission", `Draft ${draft.id} is scheduled: changing it schedules the new content, which needs \`draft_send\`.`, {
      fix: "Unschedule it in the same call (sendAt: null), or use a key with the scope `draft_send` (API keys screen).",
      details: { scopes: ["draft_send"] },
    });
  }
  const to = list(input.to, draft.to);
  const cc = list(input.cc, draft.cc);
  const bcc = list(input.bcc, draft.bcc);
  const n = to.length + cc.length + bcc.length;
  if (n > MAX_RECIPIENTS) throw fieldError("to", `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (${n} with the draft's)`);

  const current = (await draftFiles(db, draft.projectId, [draft.id])).get(draft.id) ?? [];
  const removed = input.removeAttachments ?? [];
  for (const [i, id] of removed.entries()) {
    if (!current.some((f) => f.id === id)) {
      throw new AppError("NOT_FOUND", `removeAttachments.${i}: attachment ${id} is not on draft ${draft.id}.`, {
        fix: "Use an attachment_id from get_draft's attachments.",
        details: { field: `removeAttachments.${i}` },
      });
    }
  }
  const kept = current.filter((f) => !removed.includes(f.id));
  const files = await resolveSendAttachments(
    db,
    actor,
    input.addAttachments ?? [],
    kept.map((f) => ({ name: f.name, contentType: f.contentType, sizeBytes: f.sizeBytes, blobKey: f.blobKey, contentId: f.contentId, inline: f.inline })),
  );

  const remove = new Set([...(input.removeLabels ?? []), "scheduled"]);
  const labels = [...new Set([...draft.labels, ...(input.addLabels ?? [])])].filter((l) => !remove.has(l));
  if (sendStatus === "scheduled") labels.push("scheduled");

  if (removed.length > 0) {
    await db
      .delete(mailAttachments)
      .where(and(eq(mailAttachments.projectId, draft.projectId), eq(mailAttachments.draftId, draft.id), inArray(mailAttachments.id, removed)));
    await releaseDraftFiles(
      db,
      draft.projectId,
      current.filter((f) => removed.includes(f.id)).map((f) => f.blobKey),
    );
  }
  const [updated] = await db
    .update(mailDrafts)
    .set({
      to,
      cc,
      bcc,
      replyTo: list(input.replyTo, draft.replyTo),
      subject: text(input.subject, draft.subject),
      text: text(input.text, draft.text),
      html: text(input.html, draft.html),
      labels,
      sendAt,
      sendStatus,
      sendReason: null,
      // What an agent changed is the agent's to send: a draft it edits becomes its own, so the owner's scheduled
      // draft an agent rewrote goes out as the agent's send (the mailbox's policy holds it), not as the owner's.
      ...(actor.type === "key" ? { keyId: actor.keyId, agent: actor.agent } : {}),
      version: sql`${mailDrafts.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)))
    .returning();
  await attachToDraft(db, updated, { fresh: files.fresh, kept: [] });
  await scheduleDraft(db, updated);
  return updated;
}

/** The schedule after the change: a given sendAt (or null) decides; otherwise a scheduled draft stays scheduled. */
function schedule(draft: MailDraft, given: string | null | undefined): { sendAt: Date | null; sendStatus: DraftSendStatus | null } {
  if (given === null) return { sendAt: null, sendStatus: null };
  if (given !== undefined) return { sendAt: new Date(given), sendStatus: "scheduled" };
  return draft.sendStatus === "scheduled" ? { sendAt: draft.sendAt, sendStatus: "scheduled" } : { sendAt: null, sendStatus: null };
}
