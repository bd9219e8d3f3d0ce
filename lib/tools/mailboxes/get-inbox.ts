import { z } from "zod";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField, inboxOutput } from "@/lib/tools/mailboxes/inbox-fields";

export const getInbox = defineTool({
  name: "get_inbox",
  family: "mailboxes",
  scope: "inbox_read",
  description:
    "Returns one inbox by id or address: its address, display name, status, send policy and metadata. An inbox that does not exist, was deleted or is outside the key's restriction is NOT_FOUND.",
  input: z.object({ inboxId: inboxIdField }).strict(),
  output: inboxOutput,
  annotations: { ...mailboxRead, title: "Get an inbox" },
  rest: { method: "GET", path: "/inboxes/{inbox_id}" },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const mailbox = await findMailbox(ctx.db, ctx.actor, input.inboxId);
    ctx.subject = mailbox.id;
    return inboxView(mailbox);
  },
});
