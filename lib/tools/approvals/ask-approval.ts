import { z } from "zod";
import { riskLevels } from "@/lib/db/schema/approvals";
import { getDb } from "@/lib/db/client";
import { askApproval as ask } from "@/lib/approvals/ask-approval";
import { requestView } from "@/lib/approvals/request-view";
import { defineTool } from "@/lib/tools/define-tool";
import { requestShape } from "@/lib/tools/approvals/request-shape";
import { approversField, callbackUrlField, expiresInField, optionsField, stateRefField, waitSecondsField } from "@/lib/tools/approvals/approval-fields";

export const askApproval = defineTool({
  name: "ask_approval",
  family: "brynth",
  scope: "approvals",
  description:
    'Asks a person to approve an action through the project channels (email, Telegram) and waits up to `wait_seconds` (default 45, max 120). Use it when nobody is watching: if the user is in this session, ask them there instead. The person decides away from this session, so put what you will do, why, what it touches and whether it can be undone in `details`, required when `risk` is `high`. Returns `status` `approved`, `denied`, `modified` (`decision` is the chosen option), `needs_context` or `expired`, with an optional `comment`. On `needs_context`: read `comment`, then open a new request with fuller `details`; do not repeat this one. If nobody decided yet it returns `pending` with a `hint`: save your state and resume with `request_status`. The project policy may decide at once (`decided_by: "policy:<rule>"`). Proceed only on `approved` or `modified`.',
  input: z
    .object({
      action: z.string().trim().min(1).max(100).describe("What needs approval, e.g. `refund`. Policies match on it."),
      summary: z
        .string()
        .trim()
        .min(1)
        .max(300)
        .refine((s) => !/[\r\n]/.test(s), "must be one line")
        .describe("One line the person reads first: the action and its object, e.g. `Refund order 1042 (30 €)?`."),
      details: z
        .string()
        .trim()
        .min(1)
        .max(4000)
        .optional()
        .describe(
          "Required when `risk` is `high`. Context for a person who cannot see this session, up to 4,000 characters: what you will do, why, what it touches (resources, people, amounts), and whether it can be undone and how. E.g. `Refund 30 € to the card of order 1042, as the customer asked in ticket 881. Touches only that order. Cannot be undone once sent.`",
        ),
      risk: z.enum(riskLevels).default("medium").describe("`low`, `medium` or `high`. Default `medium`. `high` requires `details`."),
      amount: z.number().finite().optional().describe("Amount involved, if any. Policies match on it (`amount_lte`, `amount_gt`)."),
      options: optionsField,
      wait_seconds: waitSecondsField,
      expires_in: expiresInField,
      approvers: approversField,
      state_ref: stateRefField,
      callback_url: callbackUrlField,
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.risk === "high" && !v.details) {
        ctx.addIssue({
          code: "custom",
          path: ["details"],
          message: "is required when risk is high: say what you will do, why, what it touches and whether it can be undone",
        });
      }
    }),
  output: requestShape,
  annotations: { title: "Ask a person for approval", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: { method: "POST", path: "/approvals" },
  op: "ask.approval",
  transaction: false,
  waits: true,
  example: { action: "example", summary: "Example request?", wait_seconds: 0 },
  handler: async (ctx, input) => {
    const row = await ask(await getDb(), {
      actor: ctx.actor,
      signal: ctx.signal,
      action: input.action,
      summary: input.summary,
      details: input.details,
      risk: input.risk,
      amount: input.amount,
      options: input.options,
      waitSeconds: input.wait_seconds,
      expiresInMs: input.expires_in,
      approvers: input.approvers,
      stateRef: input.state_ref,
      callbackUrl: input.callback_url,
    });
    ctx.subject = row.id;
    return requestView(row);
  },
});
