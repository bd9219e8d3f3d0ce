import { z } from "zod";
import { pathText } from "@/lib/disk/path-rules";
import { defineTool } from "@/lib/tools/define-tool";
import { sendEmailGated } from "@/lib/approvals/email/send-email-gated";
import { oneLine, plainAddress, utf8Max } from "@/lib/mail/outbound/address-rules";
import { BODY_MAX_BYTES, MAX_ATTACHMENTS, MAX_RECIPIENTS, SUBJECT_MAX_CHARS } from "@/lib/mail/outbound/limits";

export const emailSend = defineTool({
  name: "email_send",
  family: "brynth",
  scope: "send",
  description:
    "Sends an email from the project address, one message per recipient. `to`: 1 to 50 plain addresses (`local@domain`, ASCII, no display names). `subject` is one line of up to 255 characters; `text` (required) and `html` (optional) up to 256 KB each. `attachments`: up to 10 disk paths, `disk://` references or inbound attachments (`evt_…/name`), 10 MB in total. Replies reach the inbox as `email.received` with `reply_to` set to the `message_id`, unless `reply_to_inbox` is false. The project policy decides (tool `email_send`, risk `medium`, the recipients' domains): `deny` answers `POLICY_DENIED`; `require_approval` asks a person and waits up to `wait_seconds` (0 to 120, default 45), and once approved the messages go out on their own. Returns `{status, batch_id, request_id, messages}` with `status` `queued`, `pending` (the person has not decided) or `cancelled` (refused or expired). Limits: 50 emails a day, 1,000 a month. Failures and bounces arrive in the inbox as `email.failed` and `email.bounced`.",
  input: z
    .object({
      to: z.array(plainAddress).min(1).max(MAX_RECIPIENTS).describe("1 to 50 recipients, `local@domain`, ASCII only. One message each."),
      subject: oneLine(SUBJECT_MAX_CHARS).describe("One line, up to 255 characters."),
      text: utf8Max(BODY_MAX_BYTES, "text").describe("The plain-text body, up to 256 KB."),
      html: utf8Max(BODY_MAX_BYTES, "html").optional().describe("An HTML body, up to 256 KB, sent as given."),
      attachments: z
        .array(pathText().min(1))
        .max(MAX_ATTACHMENTS)
        .default([])
        .describe("Up to 10 disk paths, `disk://` references or `evt_…/name`; 10 MB in total."),
      reply_to_inbox: z.boolean().default(true).describe("Replies come back to the inbox with `reply_to` set. Default true."),
      wait_seconds: z.number().int().min(0).max(120).default(45).describe("Seconds to wait for an approval in this call, 0–120. Default 45."),
    })
    .strict(),
  output: z.object({
    status: z.enum(["queued", "pending", "cancelled"]),
    batch_id: z.string(),
    request_id: z.string().nullable().describe("The approval request, when the policy asked a person."),
    messages: z.array(
      z.object({
        message_id: z.string().describe("Replies come back as `email.received` with `reply_to` set to it."),
        to: z.string(),
        status: z.string(),
      }),
    ),
  }),
  annotations: { title: "Send an email", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: { method: "POST", path: "/emails" },
  example: { to: ["someone@brynth.localhost"], subject: "Hello", text: "Hi there." },
  // The policy may ask a person and wait: no transaction is held meanwhile (the batch is written in its own).
  transaction: false,
  waits: true,
  handler: async (ctx, { wait_seconds, ...input }) => {
    const out = await sendEmailGated(ctx.db, { actor: ctx.actor, waitSeconds: wait_seconds, signal: ctx.signal, ...input });
    ctx.subject = out.batch_id;
    return out;
  },
});
