import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { attachmentResponse } from "@/lib/mail/attachments/attachment-response";
import { rawMessageBlob } from "@/lib/mail/attachments/stored-bytes";
import { findMessage } from "@/lib/mail/lookup/find-message";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField } from "@/lib/tools/mailboxes/inbox-fields";
import { messageIdField } from "@/lib/tools/mailboxes/message-fields";

const output = z.object({
  messageId: z.string(),
  threadId: z.string(),
  inboxId: z.string(),
  filename: z.string(),
  contentType: z.literal("message/rfc822"),
  size: z.number().int(),
});

/** REST-only: the message exactly as it arrived, as an `.eml` download (the JSON output is what the ledger records). */
export const getRawMessage = defineTool({
  name: "get_raw_message",
  family: "mailboxes",
  scope: "message_read",
  transports: ["rest"],
  description:
    "Downloads a received message exactly as it arrived (RFC 5322, `message/rfc822`), as an `.eml` attachment. Outbound messages have no stored raw copy → NOT_FOUND.",
  input: z.object({ inboxId: inboxIdField, messageId: messageIdField }).strict(),
  output,
  annotations: { ...mailboxRead, title: "Download a raw message" },
  rest: {
    method: "GET",
    path: "/inboxes/{inbox_id}/messages/{message_id}/raw",
    produces: ["message/rfc822"],
    respond: async (o, ctx) => {
      const blobKey = await rawMessageBlob(await getDb(), ctx.actor.projectId, o.messageId);
      return attachmentResponse({ blobKey, name: o.filename, contentType: o.contentType, sizeBytes: o.size }, ctx.method);
    },
  },
  example: { inboxId: "{{inbox}}", messageId: "{{message}}" },
  handler: async (ctx, input) => {
    const m = await findMessage(ctx.db, ctx.actor, input.inboxId, input.messageId);
    ctx.subject = m.id;
    if (!m.rawBlobKey) {
      throw new AppError("NOT_FOUND", `Message ${m.id} has no stored raw copy (only received mail keeps one).`, {
        fix: "Read the message's fields with get_message instead.",
      });
    }
    return { messageId: m.id, threadId: m.threadId, inboxId: m.mailboxId, filename: `${m.id}.eml`, contentType: "message/rfc822" as const, size: m.sizeBytes };
  },
});
