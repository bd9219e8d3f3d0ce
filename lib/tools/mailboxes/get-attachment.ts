import { z } from "zod";
import { attachmentUrl } from "@/lib/mail/attachments/attachment-url";
import { findThreadAttachment } from "@/lib/mail/attachments/find-attachment";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { attachmentIdField } from "@/lib/tools/mailboxes/label-fields";
import { threadIdField } from "@/lib/tools/mailboxes/thread-fields";

export const getAttachment = defineTool({
  name: "get_attachment",
  family: "mailboxes",
  untrusted: true,
  scope: "message_read",
  description:
    "Returns one attachment of a thread: its file name, type and size, and `download_url`, a signed link valid for five minutes that needs no key. Each download checks again that your key may still read the mailbox; the link works only at this server's address. Do not share or log it. An attachment of another thread is NOT_FOUND.",
  input: z.object({ threadId: threadIdField, attachmentId: attachmentIdField, inboxId: inboxIdField.optional() }).strict(),
  output: z.object({
    attachmentId: z.string(),
    messageId: z.string(),
    threadId: z.string(),
    inboxId: z.string(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int().describe("Bytes."),
    inline: z.boolean(),
    downloadUrl: z.string().describe("GET it without a key within five minutes; it is served as a download (Content-Disposition: attachment)."),
    expiresAt: z.string(),
  }),
  annotations: { ...mailboxRead, title: "Get an attachment" },
  rest: { method: "GET", path: "/threads/{thread_id}/attachments/{attachment_id}" },
  example: { threadId: "{{thread}}", attachmentId: "{{attachment}}" },
  handler: async (ctx, input) => {
    const found = await findThreadAttachment(ctx.db, { actor: ctx.actor, ...input });
    const a = found.attachment;
    ctx.subject = a.id;
    const link = attachmentUrl({ projectId: ctx.actor.projectId, attachmentId: a.id, keyId: ctx.actor.keyId, sessionId: ctx.actor.ownerSessionId ?? null });
    return {
      attachmentId: a.id,
      messageId: found.messageId,
      threadId: found.threadId,
      inboxId: found.mailboxId,
      filename: a.name,
      contentType: a.contentType,
      size: a.sizeBytes,
      inline: a.inline,
      downloadUrl: link.url,
      expiresAt: link.expiresAt.toISOString(),
    };
  },
});
