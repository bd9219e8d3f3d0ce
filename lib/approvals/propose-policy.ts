import type { Actor } from "@/lib/actor";
import type { Db, Executor } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listChannels } from "@/lib/channels/list-channels";
import { parsePolicy } from "@/lib/policy/parse-policy";
import { getPolicy } from "@/lib/policy/get-policy";
import type { Policy } from "@/lib/policy/policy-schema";
import { askPerson } from "@/lib/approvals/ask-person";

/** Proposals wait this long for a person, like a request's default. */
const PROPOSAL_TTL_MS = 24 * 3600_000;

/**
 * policy_set: a proposal is a request to every active channel; the policy applies (as a new version) only in the
 * transaction that approves it (resolve-request.ts). The person sees the note first, then the rules as JSON.
 */
export function proposePolicy(db: Db, opts: { actor: Actor; signal?: AbortSignal; policy: unknown; note?: string; waitSeconds: number }) {
  const policy = parsePolicy(opts.policy);
  return askPerson(db, {
    actor: opts.actor,
    waitSeconds: opts.waitSeconds,
    signal: opts.signal,
    build: async (tx) => {
      await checkRuleApprovers(tx, opts.actor.projectId, policy);
      // The proposal replaces the whole policy: the version it was written against is kept, so approving it after
      // another was applied is refused rather than dropping that one's rules (resolve-request.ts).
      const { version: basedOn } = await getPolicy(tx, opts.actor.projectId);
      const count = `${policy.rules.length} rule${policy.rules.length === 1 ? "" : "s"}`;
      return {
        kind: "policy",
        action: "policy_set",
        summary: `Change the approval policy (${count}), proposed by ${opts.actor.agent ?? "an agent"}?`,
        details: `${opts.note ? `${opts.note}\n\n` : ""}${JSON.stringify(policy, null, 2)}`,
        risk: "high",
        expiresInMs: PROPOSAL_TTL_MS,
        payload: { rules: policy.rules, note: opts.note ?? null, proposed_by: opts.actor.agent, based_on: basedOn },
      };
    },
  });
}

/** A rule may name only channels of this project (inactive ones fall back to the owner when the rule applies). */
export async function checkRuleApprovers(db: Executor, projectId: string, policy: Policy) {
  const known = new Set((await listChannels(db, projectId)).map((c) => c.id));
  const problems = policy.rules.flatMap((rule, i) =>
    // A channel listed twice in one rule is one problem, reported once.
    [...new Set(rule.approvers ?? [])]
      .filter((id) => !known.has(id))
      .map((id) => ({ field: `policy.rules.${i}.approvers`, message: `rule ${i + 1} "${rule.id}": approvers: ${id} is not a channel of this project` })),
  );
  if (problems.length) {
    throw new AppError("validation_error", problems.map((p) => p.message).join("; "), {
      fix: "Use channel ids from channel_list.",
      details: problems,
    });
  }
}
