"use server";

import { ownerAction } from "@/lib/auth/owner-action";
import { createListEntry } from "@/lib/mail/lists/create-list-entry";
import { deleteListEntry } from "@/lib/mail/lists/delete-list-entry";
import { createListEntryTool } from "@/lib/tools/mailboxes/create-list-entry";
import { deleteListEntryTool } from "@/lib/tools/mailboxes/delete-list-entry";
import { toolOpOf } from "@/lib/tools/registry";

/**
 * The Lists screen does what create_list_entry and delete_list_entry do, so it takes their input schemas (the
 * same entry rules, errors named by field) and their ledger ops.
 */
export const addListEntryAction = ownerAction(
  createListEntryTool.input,
  async (ctx, input) => {
    const { entry, created } = await createListEntry(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = entry.id;
    return { entry: entry.entry, type: entry.type, created };
  },
  { op: toolOpOf("create_list_entry") },
);

export const removeListEntryAction = ownerAction(
  deleteListEntryTool.input,
  async (ctx, input) => {
    const { mailboxId, removedId } = await deleteListEntry(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = removedId ?? mailboxId;
    return { entry: input.entry, removed: removedId !== null };
  },
  { op: toolOpOf("delete_list_entry") },
);
