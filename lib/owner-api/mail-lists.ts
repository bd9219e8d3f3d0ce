import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { MailListEntry } from "@/lib/db/schema/mail";
import { createListEntry } from "@/lib/mail/lists/create-list-entry";
import { deleteListEntry } from "@/lib/mail/lists/delete-list-entry";
import { listEntryField } from "@/lib/mail/lists/list-entry-value";
import { listListEntries } from "@/lib/mail/lists/list-list-entries";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { toolOp } from "@/lib/tools/define-tool";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { directionField, listInboxIdField, listTypeField } from "@/lib/tools/mailboxes/list-entry-fields";

/**
 * Mail → Lists over owner REST: the screen's allow and block lists, through the domain functions, field rules and
 * ledger ops of create_list_entry and delete_list_entry, as app/(dashboard)/mail/lists/actions.ts does.
 */
const entryShape = z.object({
  inbox_id: z.string().nullable(),
  direction: directionField,
  type: listTypeField,
  entry: z.string(),
  entry_type: z.enum(["email", "domain"]),
  reason: z.string().nullable(),
  created_at: z.string(),
});
const entryOut = (row: MailListEntry) => ({
  inbox_id: row.mailboxId,
  direction: row.direction,
  type: row.type,
  entry: row.entry,
  entry_type: row.entryType,
  reason: row.reason,
  created_at: row.createdAt.toISOString(),
});
/** The list a request names: its direction and type, and an inbox's (`inbox_id`) or the project's global one. */
const listInput = z.object({
  direction: directionField,
  type: listTypeField,
  inbox_id: listInboxIdField.describe("The inbox (id or address) whose list this is; omit it for the project's global list."),
});
/** That list as the domain functions take it, for the request's actor. */
const listOf = (actor: Actor, input: z.infer<typeof listInput>) => ({ actor, inboxId: input.inbox_id, direction: input.direction, type: input.type });

export const listListEntriesRoute = defineOwnerRoute({
  name: "owner_lists_list",
  description:
    "Lists one allow or block list of the project, newest first: an inbox's (`inbox_id`) or the global one. Up to `limit` entries (default 100, at most 1,000); `more` says whether others follow.",
  input: listInput.extend({ limit: z.number().int().min(1).max(1000).default(100) }).strict(),
  output: z.object({ entries: z.array(entryShape), more: z.boolean() }),
  rest: { method: "GET", path: "/owner/mail/lists/{direction}/{type}" },
  handler: async (ctx, input) => {
    const { rows } = await listListEntries(ctx.db, { ...listOf(ctx.actor, input), limit: input.limit + 1, after: null });
    return { entries: rows.slice(0, input.limit).map(entryOut), more: rows.length > input.limit };
  },
});

export const addListEntryRoute = defineOwnerRoute({
  name: "owner_lists_add",
  description:
    "Adds an address or a domain (its subdomains too) to an allow or block list: an inbox's (`inbox_id`) or the project's global one. An entry already there is returned unchanged, `created: false`.",
  input: listInput.extend({ entry: listEntryField, reason: z.string().trim().min(1).max(500).optional() }).strict(),
  output: entryShape.extend({ created: z.boolean() }),
  rest: { method: "POST", path: "/owner/mail/lists/{direction}/{type}" },
  status: 201,
  op: toolOp(createListEntryTool),
  handler: async (ctx, input) => {
    const { entry, created } = await createListEntry(ctx.db, { ...listOf(ctx.actor, input), entry: input.entry, reason: input.reason });
    ctx.subject = entry.id;
    return { ...entryOut(entry), created };
  },
});

export const removeListEntryRoute = defineOwnerRoute({
  name: "owner_lists_remove",
  description: "Removes an address or a domain from an allow or block list (`inbox_id`'s, else the global one). `removed: false` when it was not there.",
  input: listInput.extend({ entry: listEntryField }).strict(),
  output: z.object({ entry: z.string(), removed: z.boolean() }),
  rest: { method: "DELETE", path: "/owner/mail/lists/{direction}/{type}/{entry}" },
  op: toolOp(deleteListEntryTool),
  handler: async (ctx, input) => {
    const { mailboxId, removedId } = await deleteListEntry(ctx.db, { ...listOf(ctx.actor, input), entry: input.entry });
    ctx.subject = removedId ?? mailboxId;
    return { entry: input.entry, removed: removedId !== null };
  },
});
