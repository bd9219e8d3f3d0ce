import { z } from "zod";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { RESOLVE_UNKNOWN_OP, resolveActions, resolveUnknown } from "@/lib/mail/outbound/resolve-unknown";

/** The owner settles a `send_unknown` message (design §1.5 N1): the Outbound tab's buttons, and this route. */
export const resolveUnknownRoute = defineOwnerRoute({
  name: "owner_resolve_send_unknown",
  description:
    "Settles an outbound message whose relay dropped the connection after the body went out (send_status `send_unknown`): `mark_sent` or `mark_failed` after checking with the relay or the recipient, or `resend` the exact stored bytes. Any other message is a CONFLICT.",
  input: z
    .object({
      message_id: z.string().regex(/^msg_[A-Za-z0-9]{1,40}$/, "must be a message id, `msg_…`"),
      action: z.enum(resolveActions),
    })
    .strict(),
  output: z.object({
    message_id: z.string(),
    action: z.enum(resolveActions),
    status: z.string(),
    send_status: z.string().nullable(),
    send_reason: z.string().nullable(),
  }),
  rest: { method: "POST", path: "/owner/messages/{message_id}/resolve" },
  op: RESOLVE_UNKNOWN_OP,
  handler: async (ctx, input) => {
    ctx.subject = input.message_id;
    const r = await resolveUnknown(ctx.db, { actor: ctx.actor, messageId: input.message_id, action: input.action });
    return { message_id: r.messageId, action: r.action, status: r.status, send_status: r.sendStatus, send_reason: r.sendReason };
  },
});
