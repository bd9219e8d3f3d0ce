import { z } from "zod";
import { findListEntry } from "@/lib/mail/lists/find-list-entry";
import { listEntryField } from "@/lib/mail/lists/list-entry-value";
import { defineTool } from "@/lib/tools/define-tool";
import { mailboxRead } from "@/lib/tools/mailboxes/annotations";
import { directionField, listEntryOutput, listEntryView, listInboxIdField, listTypeField } from "@/lib/tools/mailboxes/list-entry-fields";

export const getListEntry = defineTool({
  name: "get_list_entry",
  family: "mailboxes",
  scope: "list_entry_read",
  description:
    "Returns one entry of an allow or block list, with its reason: an inbox's list (`inboxId`) or, without it, the global one. An entry that is not on that exact list is NOT_FOUND (a domain entry is not looked up by an address under it).",
  input: z.object({ inboxId: listInboxIdField, direction: directionField, type: listTypeField, entry: listEntryField }).strict(),
  output: listEntryOutput,
  annotations: { ...mailboxRead, title: "Get an allow/block entry" },
  rest: { method: "GET", path: "/lists/{direction}/{type}/{entry}" },
  // The fixture (lib/testing/mail-fixture.ts) has this entry on its inbox's receive block list.
  example: { inboxId: "{{inbox}}", direction: "receive", type: "block", entry: "spammer.example" },
  handler: async (ctx, input) => {
    const row = await findListEntry(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = row.id;
    return listEntryView(row);
  },
});
