"use server";

import { composeDraftDef, composeSendDef, deleteDraftDef, sendDraftNowDef, setSendPolicyDef, updateDraftDef } from "@/components/mailboxes/send-action-defs";
import { ownerAction } from "@/lib/auth/owner-action";

// The owner's sending actions; each definition (schema, work, ledger op) lives in send-action-defs.ts.
export const setSendPolicyAction = ownerAction(setSendPolicyDef.schema, setSendPolicyDef.run, setSendPolicyDef.ledger);
export const composeSendAction = ownerAction(composeSendDef.schema, composeSendDef.run, composeSendDef.ledger);
export const composeDraftAction = ownerAction(composeDraftDef.schema, composeDraftDef.run, composeDraftDef.ledger);
export const sendDraftNowAction = ownerAction(sendDraftNowDef.schema, sendDraftNowDef.run, sendDraftNowDef.ledger);
export const deleteDraftAction = ownerAction(deleteDraftDef.schema, deleteDraftDef.run, deleteDraftDef.ledger);
export const updateDraftAction = ownerAction(updateDraftDef.schema, updateDraftDef.run, updateDraftDef.ledger);
