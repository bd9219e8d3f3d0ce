import { z } from "zod";
import { displayNameField, mailboxStatusField, metadataPatchField } from "@/lib/mail/mailboxes/create-mailbox-fields";
import { inboxView } from "@/lib/mail/mailboxes/inbox-view";
import { updateMailbox } from "@/lib/mail/mailboxes/update-mailbox";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxUpdate } from "@/lib/tools/mailboxes/annotations";
import { inboxIdField, inboxOutput } from "@/lib/tools/mailboxes/inbox-fields";

export const updateInbox = defineTool({
  name: "update_inbox",
  family: "mailboxes",
  scope: "inbox_update",
  description:
    "Changes an inbox's display name, status or metadata; omitted fields stay as they are. `metadata` is merged: a null value removes that key, and `metadata: null` clears it all. `status: disabled` refuses new mail to the address and stops its sending. The send policy is the owner's and cannot be changed here.",
  input: z
    .object({
      inboxId: inboxIdField,
      displayName: displayNameField.nullable().optional().describe("The new display name; null removes it."),
      status: mailboxStatusField.optional(),
      metadata: metadataPatchField.optional(),
    })
    .strict(),
  output: inboxOutput,
  annotations: { ...mailboxUpdate, title: "Update an inbox" },
  rest: { method: "PATCH", path: "/inboxes/{inbox_id}" },
  example: { inboxId: "{{inbox}}", metadata: { team: "support" } },
  handler: async (ctx, input) => {
    const mailbox = await updateMailbox(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = mailbox.id;
    return inboxView(mailbox);
  },
});
