import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { applyPolicy } from "@/lib/policy/apply-policy";
import { parsePolicy } from "@/lib/policy/parse-policy";
import { checkRuleApprovers } from "@/lib/approvals/propose-policy";

/** The owner's edit in the dashboard applies at once, as a new version approved by the owner (ledgered). */
export async function setPolicyAsOwner(tx: Executor, opts: { actor: Actor; policy: unknown; note?: string | null }) {
  const policy = parsePolicy(opts.policy);
  await checkRuleApprovers(tx, opts.actor.projectId, policy);
  const who = `owner:${opts.actor.agent ?? "owner"}`;
  return applyPolicy(tx, { actor: opts.actor, policy, note: opts.note ?? null, proposedBy: who, approvedBy: who, approvedVia: "dashboard" });
}
