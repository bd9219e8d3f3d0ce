import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import type { MailDraft } from "@/lib/db/schema/mail-send";
import { sha256Hex } from "@/lib/crypto/hash";
import { stableJson } from "@/lib/json/stable-json";
import { draftAction } from "@/lib/mail/drafts/draft-action";

/**
 * The hash of exactly what a draft would send (draftAction: recipients, subject, body and attachment hashes,
 * headers, thread, version) and, for a held draft, of what its approval request holds. They match unless the draft
 * changed after it was held, in which case an approval sends nothing (settle-draft-approval.ts): the screen says so.
 */
export async function ownerDraftHash(db: Executor, draft: MailDraft): Promise<{ content: string; approved: string | null; requestStatus: string | null }> {
  const content = sha256Hex(stableJson(await draftAction(db, draft)));
  if (!draft.approvalRequestId) return { content, approved: null, requestStatus: null };
  const [request] = await db
    .select({ payload: approvalRequests.payload, status: approvalRequests.status })
    .from(approvalRequests)
    .where(and(eq(approvalRequests.projectId, draft.projectId), eq(approvalRequests.id, draft.approvalRequestId)));
  return { content, approved: request ? sha256Hex(stableJson(request.payload)) : null, requestStatus: request?.status ?? null };
}
