import { z } from "zod";
import { deleteListEntry } from "@/lib/mail/lists/delete-list-entry";
import { listEntryField } from "@/lib/mail/lists/list-entry-value";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxDelete } from "@/lib/tools/mailboxes/annotations";
import { directionField, listInboxIdField, listTypeField } from "@/lib/tools/mailboxes/list-entry-fields";

export const deleteListEntryTool = defineTool({
  name: "delete_list_entry",
  family: "mailboxes",
  scope: "list_entry_delete",
  description:
    "Removes an address or domain from an allow or block list: an inbox's (`inboxId`) or, without it, the global one. Removing an entry that is not there succeeds too.",
  input: z.object({ inboxId: listInboxIdField, direction: directionField, type: listTypeField, entry: listEntryField }).strict(),
  output: z.object({
    inboxId: z.string().nullable().describe("The inbox whose list it was; null for the global list."),
    direction: directionField,
    type: listTypeField,
    entry: z.string(),
    deleted: z.literal(true).describe("Always true: the entry is not on the list (now or before this call)."),
  }),
  annotations: { ...mailboxDelete, title: "Remove an allow/block entry" },
  rest: { method: "DELETE", path: "/lists/{direction}/{type}/{entry}" },
  example: { inboxId: "{{inbox}}", direction: "receive", type: "block", entry: "spammer.example" },
  handler: async (ctx, input) => {
    const { mailboxId, removedId } = await deleteListEntry(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = removedId ?? mailboxId;
    return { inboxId: mailboxId, direction: input.direction, type: input.type, entry: input.entry, deleted: true as const };
  },
});
