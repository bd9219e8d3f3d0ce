import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { mailDrafts, type MailDraft } from "@/lib/db/schema/mail-send";
import { AppError } from "@/lib/errors";
import { defineJobKind } from "@/lib/jobs/define-job-kind";
import { draftAuthor, sendDraft } from "@/lib/mail/drafts/send-draft";

/**
 * A scheduled draft's send, at `send_at`, for the version it was scheduled at (dedupe key `drf:<id>:<version>`).
 * Everything happens in the transaction that marks the job done: the draft row is locked, and a draft that changed
 * (another version), was sent, deleted or is no longer `scheduled` makes it a no-op, so of two instances (or a
 * retried run) exactly one sends. A send its checks refuse now (a list entry, the quota, a disabled inbox) leaves
 * the draft `failed` with the reason; an approval hold leaves it `pending_approval` (sendFromMailbox does that).
 */
export const sendDraftJob = defineJobKind({
  kind: "mail.send_draft",
  payload: z.object({ draft_id: z.string(), version: z.number().int() }),
  maxAttempts: 5,
  retryBaseMs: 10_000,
  handler: async (payload, ctx) => {
    const projectId = ctx.job.projectId ?? "";
    return async (tx) => void (await sendScheduledDraft(tx, { projectId, draftId: payload.draft_id, version: payload.version }));
  },
});

export async function sendScheduledDraft(
  tx: Executor,
  o: { projectId: string; draftId: string; version: number },
): Promise<"sent" | "held" | "failed" | "none"> {
  const [draft] = await tx
    .select()
    .from(mailDrafts)
    .where(and(eq(mailDrafts.projectId, o.projectId), eq(mailDrafts.id, o.draftId)))
    .for("update");
  if (!draft || draft.version !== o.version || draft.sendStatus !== "scheduled") return "none";
  const [mailbox] = await tx
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, o.projectId), eq(mailboxes.id, draft.mailboxId)));
  if (!mailbox || mailbox.deletedAt) return fail(tx, draft, "its inbox was deleted.");
  try {
    // A savepoint: a refusal must leave no partial send behind, only the draft's `failed`.
    // The owner's own draft (no key wrote it) is the owner's send: the owner set the policy, so no hold applies.
    const origin = draft.keyId ? "schedule" : "owner";
    const outcome = await tx.transaction((sp) => sendDraft(sp, { actor: draftAuthor(draft), mailbox, draft, origin }));
    return "sent" in outcome ? "sent" : "held";
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return fail(tx, draft, err.message);
  }
}

/** The scheduled send did not happen: the draft says why, loses the `scheduled` label and gets a new version. */
async function fail(tx: Executor, draft: MailDraft, why: string): Promise<"failed"> {
  await tx
    .update(mailDrafts)
    .set({
      sendStatus: "failed",
      sendReason: `The scheduled send was refused: ${why}`.slice(0, 1000),
      labels: sql`${mailDrafts.labels} - 'scheduled'`,
      version: sql`${mailDrafts.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(mailDrafts.projectId, draft.projectId), eq(mailDrafts.id, draft.id)));
  return "failed";
}
