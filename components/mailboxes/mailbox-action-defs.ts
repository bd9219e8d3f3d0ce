import { z } from "zod";
import type { ActionContext, ActionLedger } from "@/lib/auth/owner-action";
import { AppError } from "@/lib/errors";
import { labelThread } from "@/lib/mail/labels/label-thread";
import { trashThread } from "@/lib/mail/labels/trash-thread";
import { displayNameField, usernameField } from "@/lib/mail/mailboxes/create-mailbox-fields";
import { createMailbox } from "@/lib/mail/mailboxes/create-mailbox";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { labelField } from "@/lib/tools/mailboxes/label-fields";
import { toolOpOf } from "@/lib/tools/registry";

/**
 * The Mailboxes screens' owner actions as data (schema, work, ledger op), so tests run them through the same
 * runOwnerAction the "use server" file (app/(dashboard)/mail/mailbox-actions.ts) wraps them in. Each mirrors a tool
 * and takes its op (ARCHITECTURE §5a) and its input rules.
 */
interface Def<S extends z.ZodType, T> {
  schema: S;
  run: (ctx: ActionContext, input: z.output<S>) => Promise<T>;
  ledger: ActionLedger<z.output<S>>;
}
const def = <S extends z.ZodType, T>(d: Def<S, T>) => d;
const threadId = z.string().min(1).max(100);

/** The New mailbox dialog. */
export const createMailboxDef = def({
  schema: z.object({ username: usernameField, domain: z.string().trim().min(1).max(253), displayName: displayNameField.optional() }),
  run: async (ctx, input) => {
    const { mailbox } = await createMailbox(ctx.db, { actor: ctx.actor, username: input.username, domain: input.domain, displayName: input.displayName }).catch(
      (err) => {
        // A taken address is the username's problem: the dialog shows it on that field.
        if (err instanceof AppError && err.code === "CONFLICT" && / is taken\.$/.test(err.message)) {
          const message = `${input.username}@${input.domain} is taken; choose another username.`;
          throw new AppError("CONFLICT", message, { details: { field: "username", message } });
        }
        throw err;
      },
    );
    ctx.subject = mailbox.id;
    return { id: mailbox.id, address: mailbox.address };
  },
  ledger: { op: toolOpOf("create_inbox") },
});

/** Confirmed by typing the address; the project address stays while an email source receives on it. */
export const deleteMailboxDef = def({
  schema: z.object({ inboxId: z.string().min(1).max(100) }),
  run: async (ctx, input) => {
    ctx.subject = input.inboxId;
    const row = await deleteMailbox(ctx.db, { actor: ctx.actor, inboxId: input.inboxId });
    return { id: row.id, address: row.address };
  },
  ledger: { op: toolOpOf("delete_inbox") },
});

/** The label editor: the agents' label rules (update_thread's labelField). */
export const setThreadLabelsDef = def({
  schema: z.object({ threadId, addLabels: z.array(labelField).max(20), removeLabels: z.array(labelField).max(20) }),
  run: async (ctx, input) => {
    ctx.subject = input.threadId;
    return labelThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: input.addLabels, remove: input.removeLabels });
  },
  ledger: { op: toolOpOf("update_thread") },
});

/** Trash button and `e`: the whole thread, as delete_thread does. */
export const trashThreadDef = def({
  schema: z.object({ threadId }),
  run: async (ctx, input) => {
    ctx.subject = input.threadId;
    return trashThread(ctx.db, { actor: ctx.actor, threadId: input.threadId });
  },
  ledger: { op: toolOpOf("delete_thread") },
});

/** Opening a thread reads it: `unread` leaves its messages, an owner update_thread in the ledger. */
export const markThreadReadDef = def({
  schema: z.object({ threadId }),
  run: async (ctx, input) => {
    ctx.subject = input.threadId;
    return labelThread(ctx.db, { actor: ctx.actor, threadId: input.threadId, add: [], remove: ["unread"] });
  },
  ledger: { op: toolOpOf("update_thread") },
});
