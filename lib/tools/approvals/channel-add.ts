import { z } from "zod";
import { addChannel } from "@/lib/channels/add-channel";
import { channelKinds, channelStatuses } from "@/lib/db/schema/approvals";
import { defineTool } from "@/lib/tools/define-tool";
import { plainAddress } from "@/lib/mail/outbound/address-rules";

export const channelAdd = defineTool({
  name: "channel_add",
  family: "brynth",
  scope: "approvals",
  description:
    'Adds a channel where people receive requests. Email: `{kind: "email", address, label}` sends a verification link. Telegram: `{kind: "telegram", label}` returns a t.me `link` the person opens to link the chat. A verified channel becomes active only after the owner approves it. The verification email counts toward the daily and monthly email limits of the project, as `email_send` does (`QUOTA_EXCEEDED` once they are used up).',
  input: z
    .object({
      kind: z.enum(["email", "telegram"]).describe("`email` (verified by a link) or `telegram` (verified by /start to the bot)."),
      // The verification mail's own rule (a plain ASCII local@domain, local part at most 64): an address it cannot
      // carry was refused later, under a field named `to` this tool does not have.
      address: plainAddress.optional().describe("Email address to add, a plain ASCII `local@domain`. Only for `email`."),
      label: z.string().trim().min(1).max(40).optional().describe("Short name shown on decisions, e.g. `mario`. Default: the kind."),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.kind === "email" && !v.address) ctx.addIssue({ code: "custom", path: ["address"], message: "is required for an email channel" });
      if (v.kind === "telegram" && v.address) ctx.addIssue({ code: "custom", path: ["address"], message: "is only for email channels" });
    }),
  output: z.object({
    channel_id: z.string(),
    kind: z.enum(channelKinds),
    label: z.string(),
    status: z.enum(channelStatuses),
    address: z.string().nullable(),
    link: z.string().nullable().describe("Telegram: the t.me link the person opens to link the chat."),
    expires_at: z.string().describe("When the verification link or start code stops working."),
    hint: z.string(),
  }),
  annotations: { title: "Add an approval channel", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: { method: "POST", path: "/channels" },
  handler: async (ctx, input) => {
    const out = await addChannel(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = out.channel_id;
    return out;
  },
});
