import type { Executor } from "@/lib/db/client";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { sendDraftJob } from "@/lib/mail/drafts/send-draft-job";

/**
 * The job that sends a scheduled draft at its time, for exactly this version: any later change (a new version) or
 * a delete makes it do nothing, so rescheduling and cancelling need no job bookkeeping, on any instance.
 */
export async function scheduleDraft(tx: Executor, draft: MailDraft): Promise<void> {
  if (draft.sendStatus !== "scheduled" || !draft.sendAt) return;
  await enqueueJob(
    tx,
    sendDraftJob,
    { draft_id: draft.id, version: draft.version },
    { projectId: draft.projectId, runAt: draft.sendAt, dedupeKey: `drf:${draft.id}:${draft.version}` },
  );
}
