import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { assertEditable, findDraft } from "@/lib/mail/drafts/find-draft";
import { sendDraft } from "@/lib/mail/drafts/send-draft";
import { type SendOutcome, toolCallOrigin } from "@/lib/mail/send/send-from-mailbox";

/**
 * send_draft: the draft, locked, through the one send path as the caller's own send (an agent's meets the policies). A scheduled
 * draft goes now and its job later finds nothing; a failed or rejected one may be tried again; one being sent or
 * awaiting approval → CONFLICT; a sent one is gone → NOT_FOUND.
 */
export async function sendDraftNow(
  db: Executor,
  o: { actor: Actor; inboxId: string; draftId: string; addLabels?: string[]; removeLabels?: string[] },
): Promise<SendOutcome> {
  const { mailbox, draft } = await findDraft(db, o.actor, o.inboxId, o.draftId, { lock: true });
  assertEditable(draft, "be sent again");
  return sendDraft(db, { actor: o.actor, mailbox, draft, origin: toolCallOrigin(o.actor), labels: { add: o.addLabels, remove: o.removeLabels } });
}
