import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { AppError } from "@/lib/errors";
import { attachmentResponse } from "@/lib/mail/attachments/attachment-response";
import { attachmentBlob } from "@/lib/mail/attachments/stored-bytes";
import { findDraft } from "@/lib/mail/drafts/find-draft";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { draftIdField } from "@/lib/tools/mailboxes/draft-fields";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { attachmentIdField } from "@/lib/tools/mailboxes/label-fields";

/** REST-only (spec: draft attachment downloads): a draft's file, downloaded with the bearer. */
export const getDraftAttachment = defineTool({
  name: "get_draft_attachment",
  family: "mailboxes",
  scope: "draft_read",
  transports: ["rest"],
  description: "Downloads one attachment of a draft with your key, served as a file (Content-Disposition: attachment).",
  input: z.object({ inboxId: inboxIdField, draftId: draftIdField, attachmentId: attachmentIdField }).strict(),
  output: z.object({
    attachmentId: z.string(),
    draftId: z.string(),
    inboxId: z.string(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int(),
  }),
  annotations: { ...mailboxRead, title: "Download a draft attachment" },
  rest: {
    method: "GET",
    path: "/inboxes/{inbox_id}/drafts/{draft_id}/attachments/{attachment_id}",
    // The attachment's own type, as it was stored.
    produces: ["*/*"],
    respond: async (o, ctx) => {
      const blobKey = await attachmentBlob(await getDb(), ctx.actor.projectId, o.attachmentId);
      return attachmentResponse({ blobKey, name: o.filename, contentType: o.contentType, sizeBytes: o.size }, ctx.method);
    },
  },
  example: { inboxId: "{{inbox}}", draftId: "{{draft}}", attachmentId: "{{draftAttachment}}" },
  handler: async (ctx, input) => {
    const { draft } = await findDraft(ctx.db, ctx.actor, input.inboxId, input.draftId);
    const [a] = await ctx.db
      .select()
      .from(mailAttachments)
      .where(and(eq(mailAttachments.projectId, draft.projectId), eq(mailAttachments.draftId, draft.id), eq(mailAttachments.id, input.attachmentId)));
    if (!a)
      throw new AppError("NOT_FOUND", `Attachment ${input.attachmentId} is not on draft ${draft.id}.`, {
        fix: "Use an attachment_id from the draft's attachments.",
      });
    ctx.subject = a.id;
    return { attachmentId: a.id, draftId: draft.id, inboxId: draft.mailboxId, filename: a.name, contentType: a.contentType, size: a.sizeBytes };
  },
});
