import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import type { MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { webhookCreators } from "@/lib/mail/webhooks/webhook-creators";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";

/** A webhook as the owner's REST shows it: whoever created it, its state, and its custom headers by name only. */
export const ownerWebhookView = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(MAIL_EVENT_TYPES)),
  inbox_ids: z.array(z.string()).describe("Mailboxes watched; empty: every mailbox of the project."),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable().describe("Why it is off: `410 Gone`, sustained failure, or who switched it off."),
  created_by: z
    .object({ type: z.enum(["owner", "key"]), key_id: z.string().nullable(), key_name: z.string().nullable() })
    .describe("The owner, or the API key whose agent created it (agents see only their key's webhooks)."),
  header_names: z.array(z.string()).describe("Custom headers sent with every delivery; values via GET …/headers."),
  previous_secret_until: z.string().nullable().describe("After a rotation, deliveries carry a second signature with the old secret until then."),
  consecutive_failures: z.number().int(),
  last_delivery_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OwnerWebhookView = z.infer<typeof ownerWebhookView>;

/** The views of these rows, their creators' key names read in one statement. */
export async function ownerWebhookViews(db: Executor, projectId: string, rows: MailWebhook[]): Promise<OwnerWebhookView[]> {
  const creators = await webhookCreators(
    db,
    projectId,
    rows.map((r) => r.keyId),
  );
  const now = new Date();
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    event_types: r.eventTypes as OwnerWebhookView["event_types"],
    inbox_ids: r.inboxIds,
    enabled: r.enabled,
    disabled_reason: r.disabledReason,
    created_by: r.keyId ? { type: "key", key_id: r.keyId, key_name: creators.get(r.keyId)?.name ?? null } : { type: "owner", key_id: null, key_name: null },
    header_names: Object.keys(openWebhookHeaders(r)),
    previous_secret_until: r.previousSecretUntil && r.previousSecretUntil > now ? r.previousSecretUntil.toISOString() : null,
    consecutive_failures: r.consecutiveFailures,
    last_delivery_at: r.lastDeliveryAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}
