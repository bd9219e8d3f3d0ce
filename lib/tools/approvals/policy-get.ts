import { z } from "zod";
import { getPolicy } from "@/lib/policy/get-policy";
import { defineTool } from "@/lib/tools/define-tool";
import { readOnly } from "@/lib/tools/fields";

export const policyGet = defineTool({
  name: "policy_get",
  family: "brynth",
  scope: "approvals",
  description:
    "Returns the approval policy of the project: its `rules` and `version`. Version 0 means no policy, so every request goes to a person. Effects: `allow`, `deny` (refused at once), `require_approval` (a person decides), `auto_approve` (approved at once), `auto_approve_notify` (approved at once, then a notice without buttons). Who is asked or told: the rule's active `approvers`, or the owner channel if none is active; for a rule without `approvers`, the request's `approvers`, else every active channel.",
  input: z.object({}).strict(),
  output: z.object({
    version: z.number().int(),
    rules: z.array(z.record(z.string(), z.unknown())),
    approved_by: z.string().nullable(),
    approved_at: z.string().nullable(),
  }),
  annotations: { ...readOnly, title: "Show the approval policy" },
  rest: { method: "GET", path: "/policy" },
  example: {},
  handler: async (ctx) => {
    const current = await getPolicy(ctx.db, ctx.actor.projectId);
    return {
      version: current.version,
      rules: current.policy.rules,
      approved_by: current.row?.approvedBy ?? null,
      approved_at: current.row?.createdAt.toISOString() ?? null,
    };
  },
});
