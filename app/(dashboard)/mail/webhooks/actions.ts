"use server";

import {
  createWebhookDef,
  deleteWebhookDef,
  resendDeliveryDef,
  rotateWebhookSecretDef,
  sendTestEventDef,
  setWebhookEnabledDef,
  updateWebhookDef,
  updateWebhookHeadersDef,
} from "@/components/webhooks/webhook-action-defs";
import type { WebhookFormInput } from "@/components/webhooks/webhook-form-dialog";
import { ownerAction } from "@/lib/auth/owner-action";

// The Webhooks screen's server actions: each definition (schema, work, ledger op) lives in webhook-action-defs.ts.
const createWebhookAction = ownerAction(createWebhookDef.schema, createWebhookDef.run, createWebhookDef.ledger);
const updateWebhookAction = ownerAction(updateWebhookDef.schema, updateWebhookDef.run, updateWebhookDef.ledger);

/**
 * The one form: a create without an id, an edit with one. The form holds event types as plain strings; the
 * action's schema is what checks them against the catalogue, so the cast only hands them over.
 */
export async function saveWebhookAction(input: Partial<WebhookFormInput> & { webhookId?: string }) {
  const fields = input as Parameters<typeof createWebhookAction>[0];
  // Called directly, the input may be null: the schemas refuse it as a form error rather than a TypeError (500).
  // Present at all, even empty, it is an edit: `webhookId: ""` made a second webhook (and secret) instead of being
  // refused, naming the field, by the edit's schema (found by helper-101).
  const webhookId = (input as { webhookId?: unknown } | null)?.webhookId;
  return webhookId !== undefined ? updateWebhookAction({ ...fields, webhookId: webhookId as string }) : createWebhookAction(fields);
}
export const setWebhookEnabledAction = ownerAction(setWebhookEnabledDef.schema, setWebhookEnabledDef.run, setWebhookEnabledDef.ledger);
export const deleteWebhookAction = ownerAction(deleteWebhookDef.schema, deleteWebhookDef.run, deleteWebhookDef.ledger);
export const rotateWebhookSecretAction = ownerAction(rotateWebhookSecretDef.schema, rotateWebhookSecretDef.run, rotateWebhookSecretDef.ledger);
export const updateWebhookHeadersAction = ownerAction(updateWebhookHeadersDef.schema, updateWebhookHeadersDef.run, updateWebhookHeadersDef.ledger);
export const sendTestEventAction = ownerAction(sendTestEventDef.schema, sendTestEventDef.run, sendTestEventDef.ledger);
export const resendDeliveryAction = ownerAction(resendDeliveryDef.schema, resendDeliveryDef.run, resendDeliveryDef.ledger);
