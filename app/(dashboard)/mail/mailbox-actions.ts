"use server";

import { z } from "zod";
import { changeThreadLabels, createOwnerMailbox, deleteOwnerMailbox, LABEL_RE, SYSTEM_LABELS } from "@/components/mailboxes/owner-mail-writes";
import { ownerAction } from "@/lib/auth/owner-action";

// Ops of the tools these mirror (ARCHITECTURE §5a): create_inbox, delete_inbox, update_thread.
const CREATE_OP = "create.inbox";
const DELETE_OP = "delete.inbox";
const UPDATE_THREAD_OP = "update.thread";

const userLabel = z
  .string()
  .trim()
  .toLowerCase()
  .regex(LABEL_RE, "1–64 characters: a-z, 0-9 and . _ : / -")
  .refine((l) => !SYSTEM_LABELS.has(l), "is a system label");

/** The New mailbox dialog. */
export const createMailboxAction = ownerAction(
  z.object({
    username: z.string().trim().min(1).max(64),
    domainId: z.string().min(1).max(64),
    displayName: z.string().trim().max(128).optional(),
  }),
  async (ctx, input) => {
    const row = await createOwnerMailbox(ctx.db, {
      actor: ctx.actor,
      username: input.username,
      domainId: input.domainId,
      displayName: input.displayName || null,
    });
    ctx.subject = row.id;
    return { id: row.id, address: row.address };
  },
  { op: CREATE_OP },
);

/** Confirmed by typing the address in the dialog. */
export const deleteMailboxAction = ownerAction(
  z.object({ inboxId: z.string().min(1).max(64) }),
  async (ctx, input) => {
    ctx.subject = input.inboxId;
    return deleteOwnerMailbox(ctx.db, { actor: ctx.actor, mailboxId: input.inboxId });
  },
  { op: DELETE_OP },
);

/** The label editor: user labels only, at most 20 a call. */
export const setThreadLabelsAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(64), addLabels: z.array(userLabel).max(20), removeLabels: z.array(userLabel).max(20) }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    return changeThreadLabels(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: input.addLabels, remove: input.removeLabels });
  },
  { op: UPDATE_THREAD_OP },
);

/** Trash (or restore) a whole thread. */
export const trashThreadAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(64), trash: z.boolean() }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    const labels = ["trash"];
    return changeThreadLabels(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: input.trash ? labels : [], remove: input.trash ? [] : labels });
  },
  { op: UPDATE_THREAD_OP },
);

/** Opening a thread reads it: `unread` goes from its messages, ledgered as the owner's update_thread. */
export const markThreadReadAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(64) }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    return changeThreadLabels(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: [], remove: ["unread"] });
  },
  { op: UPDATE_THREAD_OP },
);
