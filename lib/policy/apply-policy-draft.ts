import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkRuleApprovers } from "@/lib/approvals/propose-policy";
import { applyPolicy, requireVersionInForce } from "@/lib/policy/apply-policy";
import { discardPolicyDraft, draftPolicy, getPolicyDraft, ownerWho } from "@/lib/policy/policy-draft";

/** `dashboard` or `rest` in policy_versions.approved_via: where the owner applied it (else a channel id). */
export const ownerVia = (actor: Actor) => (actor.via === "rest" ? "rest" : "dashboard");

/**
 * Puts the draft in force as the next version, approved by the owner who applies it, and deletes the draft. The
 * draft row is locked first, so two applies at once make one version and the second finds no draft.
 * `draftUpdatedAt` names the saved draft the caller reviewed; `versionInForce` the version it was reviewed against: when another has been applied since (an
 * agent's proposal approved meanwhile), applying would silently drop its rules, so the answer is CONFLICT.
 */
export async function applyPolicyDraft(
  tx: Executor,
  opts: { actor: Actor; note?: string | null; versionInForce?: number; draftUpdatedAt?: string },
): Promise<{ version: number; rules: number }> {
  const draft = await getPolicyDraft(tx, opts.actor.projectId, { forUpdate: true });
  if (!draft) {
    throw new AppError("CONFLICT", "There is no draft to apply.", {
      fix: "Save a draft first (PUT /api/v1/owner/policy/draft, or Save draft on the Policy screen), then apply it.",
    });
  }
  // The draft the caller reviewed and simulated: another tab (or a script) saving over it since would put in force
  // rules nobody looked at.
  if (opts.draftUpdatedAt !== undefined && draft.updatedAt.toISOString() !== opts.draftUpdatedAt) {
    throw new AppError(
      "CONFLICT",
      `The draft was saved again (${draft.updatedAt.toISOString()}, by ${draft.updatedBy}) since you reviewed it: nothing was applied.`,
      {
        fix: "Review the saved draft (GET /api/v1/owner/policy/draft, or reload the Policy screen), then apply it.",
      },
    );
  }
  if (opts.versionInForce !== undefined) {
    await requireVersionInForce(
      tx,
      opts.actor.projectId,
      opts.versionInForce,
      "the draft was not applied.",
      (v) => `Review the draft against version ${v} (GET /api/v1/owner/policy/history), then apply it with version_in_force ${v}.`,
    );
  }
  const policy = draftPolicy(draft);
  // A channel named by the draft may have been removed since it was saved.
  await checkRuleApprovers(tx, opts.actor.projectId, policy);
  const who = ownerWho(opts.actor);
  const applied = await applyPolicy(tx, {
    actor: opts.actor,
    policy,
    note: opts.note ?? draft.note,
    proposedBy: draft.updatedBy,
    approvedBy: who,
    approvedVia: ownerVia(opts.actor),
  });
  await discardPolicyDraft(tx, { actor: opts.actor });
  return { version: applied.version, rules: policy.rules.length };
}
