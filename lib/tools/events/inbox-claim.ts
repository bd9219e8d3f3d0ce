import { z } from "zod";
import { claimEvent, LEASE_DEFAULT_S, LEASE_MAX_S, LEASE_MIN_S } from "@/lib/events/claim-event";
import { LIST_INLINE_BYTES } from "@/lib/events/event-envelope";
import { payloadUrl } from "@/lib/events/payload-url";
import { defineTool } from "@/lib/tools/define-tool";
import { writes } from "@/lib/tools/fields";
import { envelopeShape, envelopeView } from "@/lib/tools/events/envelope-shape";
import { eventId } from "@/lib/tools/events/event-id";
import { emailEventLinks } from "@/lib/mail/email-event-links";

export const inboxClaim = defineTool({
  name: "inbox_claim",
  family: "brynth",
  scope: "inbox:write",
  description:
    "Takes a pending event for `lease_seconds` (default 300) and returns the full envelope, with signed URLs (valid 1 hour) for large payloads, HTML and attachments. Then call `inbox_ack` when done or `inbox_nack` if it failed; an expired lease puts the event back in the queue.",
  input: z
    .object({
      event_id: eventId,
      lease_seconds: z.number().int().min(LEASE_MIN_S).max(LEASE_MAX_S).default(LEASE_DEFAULT_S).describe("Lease length in seconds, 30 to 3600, default 300."),
    })
    .strict(),
  output: envelopeShape.extend({
    lease_token: z
      .string()
      .describe("Pass it to inbox_ack / inbox_nack to act only on this exact claim: the only exact fence, from any session or agent identity."),
    lease_expires_at: z.string(),
    payload_url: z.string().nullable().describe("Signed URL of the raw payload, valid 1 hour; set for payloads over 8 KB."),
    payload_url_expires_at: z.string().nullable(),
    email: z
      .object({
        html_url: z.string().nullable(),
        attachments: z.array(z.object({ name: z.string(), path: z.string(), size_bytes: z.number(), content_type: z.string(), url: z.string() }).loose()),
        expires_at: z.string(),
      })
      .nullable()
      .describe("For email.received: signed URLs (valid 1 hour) of the HTML body and each attachment; null otherwise."),
  }),
  annotations: { ...writes, title: "Claim an inbox event" },
  rest: { method: "POST", path: "/events/{event_id}/claim" },
  untrusted: true,
  handler: async (ctx, input) => {
    const row = await claimEvent(ctx.db, { actor: ctx.actor, eventId: input.event_id, leaseSeconds: input.lease_seconds });
    ctx.subject = row.id;
    const link = row.payloadSize > LIST_INLINE_BYTES ? payloadUrl(ctx.actor.projectId, row.id) : null;
    return {
      ...envelopeView(row),
      lease_token: row.leaseToken,
      lease_expires_at: row.leaseExpiresAt.toISOString(),
      payload_url: link?.url ?? null,
      payload_url_expires_at: link?.expiresAt.toISOString() ?? null,
      email: row.type === "email.received" ? await emailEventLinks(ctx.db, { projectId: ctx.actor.projectId, eventId: row.id }) : null,
    };
  },
});
