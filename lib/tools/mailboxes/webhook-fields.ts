import { z } from "zod";
import type { MailWebhook } from "@/lib/db/schema/mail-webhooks";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { snakeCase } from "@/lib/tools/casing/snake-case";
import { openWebhookSecret } from "@/lib/mail/webhooks/webhook-secret";

export const webhookIdField = z.string().min(1).max(64).describe("The webhook (`whk_…`, from list_webhooks or create_webhook).");

export const webhookInboxIdField = z
  .string()
  .min(1)
  .max(320)
  .optional()
  .describe(
    "An inbox (id or address): the webhook must be scoped to it (name it in `inbox_ids`; one watching every inbox is found without `inboxId`). A key restricted to one inbox may omit it.",
  );

/**
 * `request` is the REST body, in snake_case over MCP too (mailboxes spec "Webhooks"). Strict, but an unknown key is
 * refused under its own name (`request.eventTypes`) with the hint an agent used to camelCase arguments needs.
 */
export function snakeRequest<S extends z.ZodRawShape>(shape: S) {
  const declared = Object.keys(shape);
  const unknownKey = z.unknown().refine(() => false, {
    error: (issue) => {
      const key = String(issue.path?.[issue.path.length - 1] ?? "");
      const snake = snakeCase(key);
      const hint = snake !== key && declared.includes(snake) ? ` (use ${snake})` : "";
      return `is not a field of request${hint}: request takes the REST body in snake_case, with ${declared.join(", ")}`;
    },
  });
  return z.object(shape).catchall(unknownKey).meta({ additionalProperties: false });
}

/** One webhook as every webhook tool returns it (camelCase here; callers receive snake_case), secret included. */
export const webhookOutput = z.object({
  webhookId: z.string().describe("`whk_…`"),
  url: z.string(),
  eventTypes: z.array(z.enum(MAIL_EVENT_TYPES)),
  inboxIds: z.array(z.string()).describe("The inboxes watched; empty: every inbox of the project."),
  clientId: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe("Why deliveries stopped (`410 Gone`, sustained failure, or switched off); null while enabled."),
  secret: z
    .string()
    .describe("The Standard Webhooks signing secret (`whsec_…`): verify each delivery's `webhook-signature` with it, e.g. with the standardwebhooks package."),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const webhookView = (row: MailWebhook): z.input<typeof webhookOutput> => ({
  webhookId: row.id,
  url: row.url,
  eventTypes: row.eventTypes as z.input<typeof webhookOutput>["eventTypes"],
  inboxIds: row.inboxIds,
  clientId: row.clientId,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  secret: openWebhookSecret(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
