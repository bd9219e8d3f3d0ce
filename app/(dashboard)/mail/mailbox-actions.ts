"use server";

import { z } from "zod";
import { createOwnerMailbox, deleteOwnerMailbox } from "@/components/mailboxes/owner-mail-writes";
import { ownerAction } from "@/lib/auth/owner-action";
import { labelThread } from "@/lib/mail/labels/label-thread";
import { trashThread } from "@/lib/mail/labels/trash-thread";
import { labelField } from "@/lib/tools/mailboxes/label-fields";
import { toolOpOf } from "@/lib/tools/registry";

// Ops of the tools these mirror (ARCHITECTURE §5a); create_inbox and delete_inbox are not registered yet, so their
// ops are written out (toolOpOf("create_inbox") once they are).
const CREATE_OP = "create.inbox";
const DELETE_OP = "delete.inbox";

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

/** The label editor: the owner's labels follow the agents' rules (update_thread's labelField). */
export const setThreadLabelsAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(100), addLabels: z.array(labelField).max(20), removeLabels: z.array(labelField).max(20) }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    return labelThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: input.addLabels, remove: input.removeLabels });
  },
  { op: toolOpOf("update_thread") },
);

/** Moves a whole thread to the trash, as delete_thread does. */
export const trashThreadAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    return trashThread(ctx.db, { actor: ctx.actor, threadId: input.threadId });
  },
  { op: toolOpOf("delete_thread") },
);

/** Opening a thread reads it: `unread` goes from its messages, ledgered as the owner's update_thread. */
export const markThreadReadAction = ownerAction(
  z.object({ threadId: z.string().min(1).max(100) }),
  async (ctx, input) => {
    ctx.subject = input.threadId;
    return labelThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: [], remove: ["unread"] });
  },
  { op: toolOpOf("update_thread") },
);
