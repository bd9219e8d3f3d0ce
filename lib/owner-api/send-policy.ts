import { z } from "zod";
import { sendPolicies } from "@/lib/db/schema/mail";
import { SET_SEND_POLICY_OP, setSendPolicy } from "@/lib/mail/mailboxes/set-send-policy";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** The owner's send policy (design D8): over owner REST, and through the dashboard's mailbox settings. */
export const setSendPolicyRoute = defineOwnerRoute({
  name: "owner_set_send_policy",
  description:
    "Sets a mailbox's send policy: `direct` (agents' sends go out at once), `approval` (every send waits for the owner's approval in Drafts) or `read_only` (agents cannot send from this address).",
  input: z
    .object({
      inbox_id: z.string().min(1).max(320).describe("The mailbox: its id (`mbx_…`) or address."),
      send_policy: z.enum(sendPolicies),
    })
    .strict(),
  output: z.object({ inbox_id: z.string(), email: z.string(), send_policy: z.enum(sendPolicies), updated_at: z.string() }),
  rest: { method: "PATCH", path: "/owner/inboxes/{inbox_id}/send-policy" },
  op: SET_SEND_POLICY_OP,
  handler: async (ctx, input) => {
    const row = await setSendPolicy(ctx.db, { actor: ctx.actor, inboxId: input.inbox_id, sendPolicy: input.send_policy });
    ctx.subject = row.id;
    return { inbox_id: row.id, email: row.address, send_policy: row.sendPolicy, updated_at: row.updatedAt.toISOString() };
  },
});
