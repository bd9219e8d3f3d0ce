import { AppError } from "@/lib/errors";
import { issueWords } from "@/lib/forms/issue-words";
import { policySchema, ruleSchema, type Policy, type Rule } from "@/lib/policy/policy-schema";
import { sliceWhole } from "@/lib/text/well-formed";

export interface PolicyProblem {
  field: string;
  message: string;
}

/**
 * A rule's id as problems name it. Every problem of a rule repeats it, so an id of any length (a bad one is what
 * gets refused) would come back many times over: a 1 MB id made a 12 MB answer. Cut to the longest valid id.
 */
const shownId = (id: string) => (id.length <= 64 ? id : `${sliceWhole(id, 64)}…`);

/**
 * Checks a proposed policy and names the rule behind every problem (`rule 2 "big-refunds": effect: …`), since a
 * person and an agent both fix policies by rule. Pure: channel existence is checked by the caller.
 */
export function policyProblems(value: unknown, field = "policy"): { policy: Policy | null; problems: PolicyProblem[] } {
  const outer = policySchema.safeParse(value);
  if (!outer.success) {
    const problems = outer.error.issues.map((i) => {
      const at = [field, ...i.path].join(".");
      const what = i.code === "unrecognized_keys" ? `unknown key ${i.keys.join(", ")}; a policy is {rules: [...]}` : i.message;
      return { field: at, message: `${at}: ${what}` };
    });
    return { policy: null, problems };
  }
  const rules: Rule[] = [];
  const problems: PolicyProblem[] = [];
  const seen = new Set<string>();
  outer.data.rules.forEach((raw, i) => {
    const id = typeof raw === "object" && raw !== null && typeof (raw as { id?: unknown }).id === "string" ? (raw as { id: string }).id : null;
    const name = `rule ${i + 1}${id ? ` "${shownId(id)}"` : ""}`;
    const at = `${field}.rules.${i}`;
    const parsed = ruleSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // In words a person and an agent both read ("effect must be one of allow, deny, …"), not zod's defaults.
        const path = issue.path.join(".");
        const what = issue.code === "unrecognized_keys" ? `unknown condition ${issue.keys.join(", ")}` : `${path || "the rule"} ${issueWords(issue)}`;
        problems.push({ field: path ? `${at}.${path}` : at, message: `${name}: ${what}` });
      }
      return;
    }
    const rule = parsed.data;
    if (seen.has(rule.id)) problems.push({ field: `${at}.id`, message: `${name}: the id is used by an earlier rule` });
    seen.add(rule.id);
    if (rule.amount_lte !== undefined && rule.amount_gt !== undefined && rule.amount_gt >= rule.amount_lte) {
      problems.push({ field: at, message: `${name}: amount_gt ${rule.amount_gt} and amount_lte ${rule.amount_lte} can never both hold` });
    }
    rules.push(rule);
  });
  return { policy: problems.length ? null : { rules }, problems };
}

/** As policyProblems, but a malformed policy is a validation_error listing every problem. */
export function parsePolicy(value: unknown, field = "policy"): Policy {
  const { policy, problems } = policyProblems(value, field);
  if (policy) return policy;
  throw new AppError("validation_error", problems.map((p) => p.message).join("; "), {
    fix: "Correct the named rules and propose the policy again; see the policy parameter's description for the rule format.",
    details: problems,
  });
}
