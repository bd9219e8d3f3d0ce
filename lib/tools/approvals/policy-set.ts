import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { proposePolicy } from "@/lib/approvals/propose-policy";
import { approvedVersion } from "@/lib/approvals/get-request-status";
import { requestView } from "@/lib/approvals/request-view";
import { MAX_RULES, POLICY_DESCRIPTION, policySchema, ruleSchema } from "@/lib/policy/policy-schema";
import { defineTool } from "@/lib/tools/define-tool";
import { documentedAs } from "@/lib/tools/json-schema";
import { requestShape } from "@/lib/tools/approvals/request-shape";

export const policySet = defineTool({
  name: "policy_set",
  family: "brynth",
  scope: "approvals",
  description:
    "Proposes a new approval policy (`{rules: [...]}`). It applies only after a person approves it on the project channels, so this waits like `ask_approval` and returns that request; `policy_get` shows the new version once approved. On `needs_context` the policy is not applied: read `comment`, then propose a revised policy that answers it; do not repeat the same one, and explain in `note` what you changed and why. The person sees the rules as JSON, after your `note`, so descriptive rule `id`s help. Effects: `allow`, `deny` (refused at once), `require_approval` (a person decides), `auto_approve` (approved at once), `auto_approve_notify` (approved at once, then a notice without buttons). Who is asked or told: the rule's active `approvers`, or the owner channel if none is active; for a rule without `approvers`, the request's `approvers`, else every active channel.",
  input: z
    .object({
      // Rules are checked one by one in proposePolicy, whose errors name the rule at fault.
      policy: documentedAs(policySchema.describe(POLICY_DESCRIPTION), z.object({ rules: z.array(ruleSchema).max(MAX_RULES) }).strict()),
      note: z
        .string()
        .trim()
        .max(500)
        .optional()
        .describe(
          "Optional, up to 500 characters, shown to the person before the rules: what the policy changes and why. After `needs_context`, what you changed to answer the comment.",
        ),
      wait_seconds: z.number().int().min(0).max(120).default(45).describe("Seconds to wait for the person's decision, 0–120. Default 45."),
    })
    .strict(),
  output: requestShape,
  annotations: { title: "Propose an approval policy", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rest: { method: "PUT", path: "/policy" },
  op: "policy.propose",
  transaction: false,
  waits: true,
  example: { policy: { rules: [] }, wait_seconds: 0 },
  handler: async (ctx, input) => {
    const db = await getDb();
    const row = await proposePolicy(db, {
      actor: ctx.actor,
      signal: ctx.signal,
      policy: input.policy,
      note: input.note || undefined,
      waitSeconds: input.wait_seconds,
    });
    ctx.subject = row.id;
    return requestView(row, { version: row.status === "approved" ? await approvedVersion(db, row.projectId, row.id) : null });
  },
});
