import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkRuleApprovers } from "@/lib/approvals/propose-policy";
import { applyPolicy, lockPolicy, requireVersionInForce } from "@/lib/policy/apply-policy";
import { ownerVia } from "@/lib/policy/apply-policy-draft";
import { getPolicy, getPolicyVersion } from "@/lib/policy/get-policy";
import { ownerWho } from "@/lib/policy/policy-draft";
import type { Rule } from "@/lib/policy/policy-schema";

/**
 * Puts an earlier version's rules back in force as a new version: history only grows, so the revert itself can be
 * seen, diffed and reverted. A draft, if any, is left alone.
 */
export async function revertPolicy(
  tx: Executor,
  opts: { actor: Actor; version: number; note?: string | null; versionInForce?: number },
): Promise<{ version: number; reverted_to: number }> {
  const projectId = opts.actor.projectId;
  // Two reverts to one version at once: the second waits here, then finds its rules in force (CONFLICT).
  await lockPolicy(tx, projectId);
  // The history page showed another version in force: one applied since (an agent's proposal) would be dropped.
  if (opts.versionInForce !== undefined) {
    await requireVersionInForce(
      tx,
      projectId,
      opts.versionInForce,
      `nothing was reverted.`,
      (v) => `See what version ${v} changed (GET /api/v1/owner/policy/history), then revert with version_in_force ${v}.`,
    );
  }
  const old = await getPolicyVersion(tx, projectId, opts.version);
  if (!old) {
    throw new AppError("NOT_FOUND", `Policy version ${opts.version} not found.`, { fix: "List the versions with GET /api/v1/owner/policy/history." });
  }
  const current = await getPolicy(tx, projectId);
  if (current.version === old.version) {
    throw new AppError("CONFLICT", `Version ${old.version} is already in force.`, { fix: "Revert to an earlier version." });
  }
  // A revert repeated (a retry after a lost answer, or two owners at once) would add the same rules again.
  if (JSON.stringify(current.policy.rules) === JSON.stringify(old.rules)) {
    throw new AppError("CONFLICT", `Version ${old.version}'s rules are already in force, as version ${current.version}.`, {
      fix: "Revert to a version whose rules differ from those in force.",
    });
  }
  const policy = { rules: old.rules as Rule[] };
  // The old rules may name a channel removed since; applying them would silently send those requests to the owner.
  await checkRuleApprovers(tx, projectId, policy);
  const who = ownerWho(opts.actor);
  const applied = await applyPolicy(tx, {
    actor: opts.actor,
    policy,
    note: opts.note ?? `Revert to version ${old.version}`,
    proposedBy: who,
    approvedBy: who,
    approvedVia: ownerVia(opts.actor),
  });
  return { version: applied.version, reverted_to: old.version };
}
