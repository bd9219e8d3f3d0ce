import { z } from "zod";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField, inboxOutput } from "@/lib/tools/mailboxes/inbox-fields";

export const deleteInbox = defineTool({
  name: "delete_inbox",
  family: "mailboxes",
  scope: "inbox_delete",
  description:
    "Deletes an inbox: its address stops receiving mail and is free for a new inbox; its threads leave every list; sends it holds for approval are withdrawn (the drafts end `rejected`), so nothing goes out from the freed address. Deleting it again succeeds with the same answer. The project address cannot be deleted while the project's email source uses it. Needs a key without a mailbox restriction.",
  input: z.object({ inboxId: inboxIdField }).strict(),
  output: inboxOutput.extend({ deleted: z.literal(true).describe("Always true: the inbox is deleted (now or by an earlier call).") }),
  annotations: { ...mailboxDelete, title: "Delete an inbox" },
  rest: { method: "DELETE", path: "/inboxes/{inbox_id}" },
  example: { inboxId: "{{inbox}}" },
  handler: async (ctx, input) => {
    const mailbox = await deleteMailbox(ctx.db, { actor: ctx.actor, inboxId: input.inboxId });
    ctx.subject = mailbox.id;
    return { ...inboxView(mailbox), deleted: true as const };
  },
});
