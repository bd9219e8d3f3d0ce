"use server";

import { createMailboxDef, deleteMailboxDef, markThreadReadDef, setThreadLabelsDef, trashThreadDef } from "@/components/mailboxes/mailbox-action-defs";
import { ownerAction } from "@/lib/auth/owner-action";

// The Mailboxes screens' server actions: each definition (schema, work, ledger op) lives in mailbox-action-defs.ts.
export const createMailboxAction = ownerAction(createMailboxDef.schema, createMailboxDef.run, createMailboxDef.ledger);
export const deleteMailboxAction = ownerAction(deleteMailboxDef.schema, deleteMailboxDef.run, deleteMailboxDef.ledger);
export const setThreadLabelsAction = ownerAction(setThreadLabelsDef.schema, setThreadLabelsDef.run, setThreadLabelsDef.ledger);
export const trashThreadAction = ownerAction(trashThreadDef.schema, trashThreadDef.run, trashThreadDef.ledger);
export const markThreadReadAction = ownerAction(markThreadReadDef.schema, markThreadReadDef.run, markThreadReadDef.ledger);
