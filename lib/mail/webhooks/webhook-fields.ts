import { z } from "zod";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { webhookHeaderProblem, webhookHeaderValueProblem } from "@/lib/mail/webhooks/webhook-headers";
import { webhookUrlProblem } from "@/lib/mail/webhooks/webhook-url";

/**
 * The webhook fields every caller writes (tools, and later the owner's screen), checked where they are parsed, so
 * each problem is a validation_error naming the field at its path (`request.url`, `request.headers.Host`).
 */

/** At most this many mailboxes per webhook (AgentMail's filter limit). */
export const MAX_WEBHOOK_INBOXES = 10;

export const webhookUrlField = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((url, ctx) => {
    const problem = webhookUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: url });
  })
  .describe("Where deliveries are POSTed: an https URL on a public host (not ports 25, 465, 587, 110, 143 or 6379).");

const known = `one of ${MAIL_EVENT_TYPES.join(", ")}`;
export const eventTypeField = z.enum(MAIL_EVENT_TYPES, { error: `is not a mail event type: use ${known}` });

export const eventTypesField = z
  .array(eventTypeField)
  .min(1, { message: `needs at least one event type (${known})` })
  .max(MAIL_EVENT_TYPES.length * 2)
  .describe(`The events to deliver, at least one: ${MAIL_EVENT_TYPES.join(", ")}.`);

export const inboxIdsField = z
  .array(z.string().min(1).max(320))
  .max(MAX_WEBHOOK_INBOXES, { message: `at most ${MAX_WEBHOOK_INBOXES} inboxes` })
  .describe(`Only events of these inboxes (ids or addresses), at most ${MAX_WEBHOOK_INBOXES}; empty or omitted: every inbox the key may read.`);

export const webhookClientIdField = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .describe("Your own id for this webhook: creating again with the same client_id returns the first one instead of a second.");

/** Custom headers to set (a name already set, in any case, is replaced); checked one by one under its own name. */
export const webhookHeadersField = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      const problem = webhookHeaderProblem(name) ?? webhookHeaderValueProblem(value);
      if (problem) ctx.addIssue({ code: "custom", path: [name], message: problem, input: value });
    }
  })
  .describe('Headers added to every delivery, e.g. {"Authorization": "Bearer …"}. Values are stored encrypted and sent as given.');

export const removeHeadersField = z
  .array(z.string().min(1).max(256))
  .max(100)
  .describe("Header names to remove (any case); naming one that is not set succeeds.");
