import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { attachmentResponse } from "@/lib/mail/attachments/attachment-response";
import { findMessageAttachment } from "@/lib/mail/attachments/find-attachment";
import { attachmentBlob } from "@/lib/mail/attachments/stored-bytes";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { attachmentIdField } from "@/lib/tools/mailboxes/label-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";

const output = z.object({
  attachmentId: z.string(),
  messageId: z.string(),
  threadId: z.string(),
  inboxId: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

/** REST-only: a message's attachment downloaded with the bearer (MCP has get_attachment's capability URL instead). */
export const getMessageAttachment = defineTool({
  name: "get_message_attachment",
  family: "mailboxes",
  scope: "message_read",
  transports: ["rest"],
  description: "Downloads one attachment of a message with your key, served as a file (Content-Disposition: attachment).",
  input: z.object({ inboxId: inboxIdField, messageId: messageIdField, attachmentId: attachmentIdField }).strict(),
  output,
  annotations: { ...mailboxRead, title: "Download a message attachment" },
  rest: {
    method: "GET",
    path: "/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
    // The attachment's own type, as it was stored.
    produces: ["*/*"],
    respond: async (o, ctx) => {
      const blobKey = await attachmentBlob(await getDb(), ctx.actor.projectId, o.attachmentId);
      return attachmentResponse({ blobKey, name: o.filename, contentType: o.contentType, sizeBytes: o.size }, ctx.method);
    },
  },
  example: { inboxId: "{{inbox}}", messageId: "{{message}}", attachmentId: "{{attachment}}" },
  handler: async (ctx, input) => {
    const found = await findMessageAttachment(ctx.db, { actor: ctx.actor, ...input });
    const a = found.attachment;
    ctx.subject = a.id;
    return {
      attachmentId: a.id,
      messageId: found.messageId,
      threadId: found.threadId,
      inboxId: found.mailboxId,
      filename: a.name,
      contentType: a.contentType,
      size: a.sizeBytes,
    };
  },
});
