import type { Executor } from "@/lib/db/client";
import type { RiskLevel } from "@/lib/db/schema/approvals";
import { listChannels } from "@/lib/channels/list-channels";
import { evaluatePolicy, policyDecider } from "@/lib/policy/evaluate-policy";
import { getPolicy } from "@/lib/policy/get-policy";
import type { GatedTool, Policy } from "@/lib/policy/policy-schema";
import { resolveApprovers } from "@/lib/policy/resolve-approvers";

export interface Simulation {
  action?: string;
  tool?: GatedTool;
  risk?: RiskLevel;
  amount?: number;
  recipients?: string[];
}

/**
 * "What would this request get?": the rule and effect the policy in force (or a draft) gives, and who would be
 * asked or told. Reads only.
 */
export async function simulatePolicy(db: Executor, projectId: string, s: Simulation, draft?: Policy) {
  const policy = draft ?? (await getPolicy(db, projectId)).policy;
  const verdict = evaluatePolicy(policy, {
    action: s.tool ?? s.action ?? null,
    tool: s.tool ?? null,
    risk: s.tool ? "medium" : (s.risk ?? "medium"),
    amount: s.amount ?? null,
    domains: s.recipients?.length ? s.recipients.map((r) => r.slice(r.lastIndexOf("@") + 1).toLowerCase()) : null,
  });
  const channels = await listChannels(db, projectId);
  const asked =
    verdict.effect === "require_approval" || verdict.effect === "auto_approve_notify"
      ? resolveApprovers({
          ruleApprovers: verdict.rule?.approvers,
          requested: undefined,
          channels: channels.map((c) => ({ id: c.id, kind: c.kind, active: c.status === "active" })),
        })
      : [];
  return {
    effect: verdict.effect,
    rule: verdict.rule?.id ?? null,
    decidedBy: verdict.effect === "require_approval" || (verdict.effect === "allow" && s.tool) ? null : policyDecider(verdict.rule),
    asked: asked.map((id) => channels.find((c) => c.id === id)?.label ?? id),
  };
}
