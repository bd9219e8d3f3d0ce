import { describe, expect, it } from "vitest";
import { diffPolicies, isEmptyDiff } from "@/lib/policy/diff-policy";
import type { Rule } from "@/lib/policy/policy-schema";

const r = (id: string, over: Partial<Rule> = {}): Rule => ({ id, effect: "deny", ...over });

describe("diffPolicies", () => {
  it("is empty for the same rules", () => {
    const rules = [r("a"), r("b", { action: "refund", amount_lte: 5 })];
    expect(isEmptyDiff(diffPolicies(rules, structuredClone(rules)))).toBe(true);
    expect(isEmptyDiff(diffPolicies([], []))).toBe(true);
  });

  it("reports rules added and removed at their positions, matched by id", () => {
    const d = diffPolicies([r("a"), r("b")], [r("a"), r("c"), r("d")]);
    expect(d.added.map((x) => [x.position, x.rule.id])).toEqual([
      [2, "c"],
      [3, "d"],
    ]);
    expect(d.removed.map((x) => [x.position, x.rule.id])).toEqual([[2, "b"]]);
    expect(d.changed).toEqual([]);
    expect(d.moved).toEqual([]);
  });

  it("reports each changed field with before and after, a field set or cleared included", () => {
    const d = diffPolicies(
      [r("refunds", { effect: "require_approval", action: "refund", amount_lte: 50, approvers: ["chn_a"] })],
      [r("refunds", { effect: "auto_approve", action: ["refund", "credit"], amount_lte: 50, risk: "low" })],
    );
    expect(d.changed).toEqual([
      {
        id: "refunds",
        position: 1,
        changes: [
          { field: "effect", before: "require_approval", after: "auto_approve" },
          { field: "action", before: "refund", after: ["refund", "credit"] },
          { field: "risk", before: undefined, after: "low" },
          { field: "approvers", before: ["chn_a"], after: undefined },
        ],
      },
    ]);
  });

  it("reports only the rule that was moved, not every rule it passed", () => {
    const before = [r("a"), r("b"), r("c"), r("d")];
    expect(diffPolicies(before, [r("d"), r("a"), r("b"), r("c")]).moved).toEqual([{ id: "d", from: 4, to: 1 }]);
    expect(diffPolicies(before, [r("b"), r("c"), r("d"), r("a")]).moved).toEqual([{ id: "a", from: 1, to: 4 }]);
    expect(diffPolicies([r("a"), r("b")], [r("b"), r("a")]).moved).toEqual([{ id: "b", from: 2, to: 1 }]);
  });

  it("does not call a rule moved when only rules before it were added or removed", () => {
    const d = diffPolicies([r("x"), r("a"), r("b")], [r("new"), r("a"), r("b")]);
    expect(d.moved).toEqual([]);
    expect(d.added.map((a) => a.rule.id)).toEqual(["new"]);
    expect(d.removed.map((a) => a.rule.id)).toEqual(["x"]);
  });
});
