import { ruleMatches } from "@/lib/policy/match-rule";
import type { Effect, Policy, PolicySubject, Rule } from "@/lib/policy/policy-schema";

export interface Verdict {
  effect: Effect;
  /** The rule that decided, or null for the default. */
  rule: Rule | null;
}

/**
 * The first matching rule decides. Without one, a request to a person (ask_approval) goes to a person, and a tool
 * call (email_send, file_url) is allowed: a project with no policy works as it did before approvals existed.
 */
export function evaluatePolicy(policy: Policy, subject: PolicySubject): Verdict {
  const rule = policy.rules.find((r) => ruleMatches(r, subject)) ?? null;
  if (rule) return { effect: rule.effect, rule };
  return { effect: subject.tool ? "allow" : "require_approval", rule: null };
}

/** `policy:<rule>` in decided_by. */
export const policyDecider = (rule: Rule | null) => `policy:${rule?.id ?? "default"}`;
