import type { Rule } from "@/lib/policy/policy-schema";

/** A rule's fields besides `id`, in the order a person reads them. */
export const ruleFields = ["effect", "action", "tool", "risk", "amount_gt", "amount_lte", "domains", "domains_any", "approvers", "description"] as const;
export type RuleField = (typeof ruleFields)[number];

export interface FieldChange {
  field: RuleField;
  /** Absent (undefined) when the field was not set on that side. */
  before?: unknown;
  after?: unknown;
}

export interface PolicyDiff {
  /** Positions are 1-based, as the rules table numbers them. */
  added: { position: number; rule: Rule }[];
  removed: { position: number; rule: Rule }[];
  changed: { id: string; position: number; changes: FieldChange[] }[];
  /** Rules kept but tried in another order (the first match decides, so order is meaning). */
  moved: { id: string; from: number; to: number }[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from one version to the next, matching rules by id. A move is reported only for rules outside the
 * longest run kept in order, so moving one rule up reports that rule, not every rule it passed.
 */
export function diffPolicies(before: readonly Rule[], after: readonly Rule[]): PolicyDiff {
  const oldAt = new Map(before.map((r, i) => [r.id, i]));
  const newAt = new Map(after.map((r, i) => [r.id, i]));
  const added = after.flatMap((rule, i) => (oldAt.has(rule.id) ? [] : [{ position: i + 1, rule }]));
  const removed = before.flatMap((rule, i) => (newAt.has(rule.id) ? [] : [{ position: i + 1, rule }]));
  const changed = after.flatMap((rule, i) => {
    const j = oldAt.get(rule.id);
    if (j === undefined) return [];
    const old = before[j];
    const changes = ruleFields.filter((f) => !same(old[f], rule[f])).map((field) => ({ field, before: old[field], after: rule[field] }));
    return changes.length ? [{ id: rule.id, position: i + 1, changes }] : [];
  });
  const keptOld = before.filter((r) => newAt.has(r.id)).map((r) => r.id);
  const keptNew = after.filter((r) => oldAt.has(r.id)).map((r) => r.id);
  // Most edits keep the order: then nothing moved, and the quadratic table is not needed.
  const inOrder = keptOld.every((id, i) => keptNew[i] === id) ? new Set(keptOld) : longestCommonRun(keptOld, keptNew);
  const moved = keptNew.filter((id) => !inOrder.has(id)).map((id) => ({ id, from: (oldAt.get(id) ?? 0) + 1, to: (newAt.get(id) ?? 0) + 1 }));
  return { added, removed, changed, moved };
}

export const isEmptyDiff = (d: PolicyDiff) => !d.added.length && !d.removed.length && !d.changed.length && !d.moved.length;

/** The ids of a longest common subsequence (at most 100 rules, so the quadratic table is small). */
function longestCommonRun(a: string[], b: string[]): Set<string> {
  // t[i][j], the run's length from a[i] and b[j] on, in one flat array.
  const w = b.length + 1;
  const t = new Int32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) t[i * w + j] = a[i] === b[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
  }
  const out = new Set<string>();
  // On a tie the rule now placed earlier counts as the one moved: "deny-rest moved up to 1" reads as the edit made.
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out.add(a[i]);
      i++;
      j++;
    } else if (t[(i + 1) * w + j] > t[i * w + j + 1]) i++;
    else j++;
  }
  return out;
}
