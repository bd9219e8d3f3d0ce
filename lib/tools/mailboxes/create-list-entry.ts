import { z } from "zod";
import { createListEntry } from "@/lib/mail/lists/create-list-entry";
import { listEntryField } from "@/lib/mail/lists/list-entry-value";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxCreate } from "@/lib/tools/mailboxes/annotations";
import { directionField, listEntryOutput, listEntryView, listInboxIdField, listTypeField } from "@/lib/tools/mailboxes/list-entry-fields";

export const createListEntryTool = defineTool({
  name: "create_list_entry",
  family: "mailboxes",
  scope: "list_entry_create",
  description:
    "Adds an address or a domain to an allow or block list: an inbox's (`inboxId`) or, without it, the project's global list (not for keys restricted to one inbox). An entry already on the list is returned unchanged. Blocked inbound mail is kept but hidden; a non-empty allow list lets only its entries through.",
  input: z
    .object({
      inboxId: listInboxIdField,
      direction: directionField,
      type: listTypeField,
      entry: listEntryField,
      reason: z.string().trim().min(1).max(500).optional().describe("Why it is listed, for whoever reads the list later; at most 500 characters."),
    })
    .strict(),
  output: listEntryOutput,
  annotations: { ...mailboxCreate, title: "Add an allow/block entry" },
  rest: { method: "POST", path: "/lists/{direction}/{type}" },
  example: { inboxId: "{{inbox}}", direction: "receive", type: "block", entry: "spammer.example", reason: "unsolicited offers" },
  handler: async (ctx, input) => {
    const { entry } = await createListEntry(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = entry.id;
    return listEntryView(entry);
  },
});
