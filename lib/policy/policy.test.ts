import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { evaluatePolicy, policyDecider } from "@/lib/policy/evaluate-policy";
import { domainMatches, ruleMatches } from "@/lib/policy/match-rule";
import { parsePolicy, policyProblems } from "@/lib/policy/parse-policy";
import { effects, type PolicySubject, type Rule } from "@/lib/policy/policy-schema";
import { resolveApprovers } from "@/lib/policy/resolve-approvers";

const ask = (over: Partial<PolicySubject> = {}): PolicySubject => ({ action: "refund", tool: null, risk: "medium", amount: null, domains: null, ...over });
const email = (domains: string[]): PolicySubject => ({ action: "email_send", tool: "email_send", risk: "medium", amount: null, domains });
const rule = (over: Partial<Rule> & Pick<Rule, "effect">): Rule => ({ id: "r", ...over });

describe("evaluatePolicy: effects", () => {
  it.each(effects)("returns the matching rule's effect %s", (effect) => {
    const verdict = evaluatePolicy({ rules: [rule({ id: "only", effect })] }, ask());
    expect(verdict.effect).toBe(effect);
    expect(verdict.rule?.id).toBe("only");
    expect(policyDecider(verdict.rule)).toBe("policy:only");
  });

  it("without a matching rule sends ask_approval to a person and allows tool calls", () => {
    const p = { rules: [rule({ effect: "deny", action: "delete" })] };
    expect(evaluatePolicy(p, ask())).toEqual({ effect: "require_approval", rule: null });
    expect(evaluatePolicy(p, email(["example.com"]))).toEqual({ effect: "allow", rule: null });
    expect(evaluatePolicy({ rules: [] }, ask()).effect).toBe("require_approval");
  });

  it("lets the first matching rule decide", () => {
    const p = {
      rules: [
        rule({ id: "small", effect: "auto_approve", action: "refund", amount_lte: 50 }),
        rule({ id: "refunds", effect: "require_approval", action: "refund" }),
        rule({ id: "rest", effect: "deny" }),
      ],
    };
    expect(evaluatePolicy(p, ask({ amount: 30 })).rule?.id).toBe("small");
    expect(evaluatePolicy(p, ask({ amount: 80 })).rule?.id).toBe("refunds");
    expect(evaluatePolicy(p, ask({ action: "delete" })).rule?.id).toBe("rest");
  });
});

describe("ruleMatches: conditions", () => {
  it("matches everything without conditions", () => {
    expect(ruleMatches(rule({ effect: "allow" }), ask())).toBe(true);
    expect(ruleMatches(rule({ effect: "allow" }), email(["a.com"]))).toBe(true);
  });

  it("action: exact, prefix with *, and lists", () => {
    expect(ruleMatches(rule({ effect: "allow", action: "refund" }), ask())).toBe(true);
    expect(ruleMatches(rule({ effect: "allow", action: "refun" }), ask())).toBe(false);
    expect(ruleMatches(rule({ effect: "allow", action: "ref*" }), ask())).toBe(true);
    expect(ruleMatches(rule({ effect: "allow", action: "refund.*" }), ask())).toBe(false);
    expect(ruleMatches(rule({ effect: "allow", action: "refund.*" }), ask({ action: "refund.partial" }))).toBe(true);
    expect(ruleMatches(rule({ effect: "allow", action: ["delete", "refund"] }), ask())).toBe(true);
    expect(ruleMatches(rule({ effect: "allow", action: ["delete", "drop"] }), ask())).toBe(false);
  });

  it("tool: matches only the named tools' calls, never ask_approval", () => {
    expect(ruleMatches(rule({ effect: "deny", tool: "email_send" }), email(["a.com"]))).toBe(true);
    expect(ruleMatches(rule({ effect: "deny", tool: "file_url" }), email(["a.com"]))).toBe(false);
    expect(ruleMatches(rule({ effect: "deny", tool: ["file_url", "email_send"] }), email(["a.com"]))).toBe(true);
    expect(ruleMatches(rule({ effect: "deny", tool: "email_send" }), ask({ action: "email_send" }))).toBe(false);
  });

  it("risk: one level or a list", () => {
    expect(ruleMatches(rule({ effect: "deny", risk: "high" }), ask({ risk: "high" }))).toBe(true);
    expect(ruleMatches(rule({ effect: "deny", risk: "high" }), ask({ risk: "low" }))).toBe(false);
    expect(ruleMatches(rule({ effect: "deny", risk: ["low", "medium"] }), ask({ risk: "medium" }))).toBe(true);
  });

  it("amount_lte and amount_gt: bounds inclusive and exclusive; no amount never matches", () => {
    const lte = rule({ effect: "auto_approve", amount_lte: 50 });
    const gt = rule({ effect: "deny", amount_gt: 50 });
    expect(ruleMatches(lte, ask({ amount: 50 }))).toBe(true);
    expect(ruleMatches(lte, ask({ amount: 50.01 }))).toBe(false);
    expect(ruleMatches(gt, ask({ amount: 50 }))).toBe(false);
    expect(ruleMatches(gt, ask({ amount: 50.01 }))).toBe(true);
    expect(ruleMatches(lte, ask({ amount: null }))).toBe(false);
    expect(ruleMatches(gt, ask({ amount: null }))).toBe(false);
    const band = rule({ effect: "require_approval", amount_gt: 10, amount_lte: 100 });
    expect([5, 10, 11, 100, 101].map((amount) => ruleMatches(band, ask({ amount })))).toEqual([false, false, true, true, false]);
  });

  it("domains: every recipient's domain must be listed; *. covers subdomains", () => {
    const internal = rule({ effect: "allow", domains: ["example.com", "*.corp.example"] });
    expect(ruleMatches(internal, email(["example.com"]))).toBe(true);
    expect(ruleMatches(internal, email(["example.com", "eu.corp.example"]))).toBe(true);
    expect(ruleMatches(internal, email(["example.com", "gmail.com"]))).toBe(false);
    expect(ruleMatches(internal, email(["sub.example.com"]))).toBe(false);
    expect(ruleMatches(internal, ask())).toBe(false);
  });

  it("domains_any: one listed recipient domain is enough", () => {
    const rival = rule({ effect: "deny", domains_any: ["rival.com"] });
    expect(ruleMatches(rival, email(["example.com", "rival.com"]))).toBe(true);
    expect(ruleMatches(rival, email(["example.com"]))).toBe(false);
    expect(ruleMatches(rival, ask())).toBe(false);
  });

  it("needs every condition to hold", () => {
    const r = rule({ effect: "auto_approve", action: "refund", risk: "low", amount_lte: 50 });
    expect(ruleMatches(r, ask({ risk: "low", amount: 20 }))).toBe(true);
    expect(ruleMatches(r, ask({ risk: "medium", amount: 20 }))).toBe(false);
    expect(ruleMatches(r, ask({ risk: "low", amount: 70 }))).toBe(false);
  });

  it("domainMatches compares case-insensitively", () => {
    expect(domainMatches("example.com", "EXAMPLE.com")).toBe(true);
    expect(domainMatches("*.example.com", "example.com")).toBe(true);
    expect(domainMatches("*.example.com", "a.b.example.com")).toBe(true);
    expect(domainMatches("*.example.com", "badexample.com")).toBe(false);
  });
});

describe("resolveApprovers", () => {
  const channels = [
    { id: "chn_owner", kind: "owner" as const, active: true },
    { id: "chn_mail", kind: "email" as const, active: true },
    { id: "chn_tg", kind: "telegram" as const, active: true },
    { id: "chn_off", kind: "email" as const, active: false },
  ];

  it("uses the rule's active approvers first", () => {
    expect(resolveApprovers({ ruleApprovers: ["chn_tg", "chn_off"], requested: ["chn_mail"], channels })).toEqual(["chn_tg"]);
  });
  it("falls back to the owner when none of the rule's approvers is active", () => {
    expect(resolveApprovers({ ruleApprovers: ["chn_off", "chn_gone"], requested: ["chn_mail"], channels })).toEqual(["chn_owner"]);
  });
  it("uses the request's approvers for a rule without approvers", () => {
    expect(resolveApprovers({ ruleApprovers: undefined, requested: ["chn_mail"], channels })).toEqual(["chn_mail"]);
  });
  it("asks every active channel otherwise", () => {
    expect(resolveApprovers({ ruleApprovers: undefined, requested: undefined, channels })).toEqual(["chn_owner", "chn_mail", "chn_tg"]);
  });
});

describe("parsePolicy", () => {
  const problem = (value: unknown) => {
    try {
      parsePolicy(value);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("validation_error");
      return (err as AppError).message;
    }
    throw new Error("expected a validation error");
  };

  it("accepts a valid policy and keeps rule order", () => {
    const p = parsePolicy({
      rules: [
        { id: "small-refunds", action: "refund", amount_lte: 50, effect: "auto_approve_notify" },
        { id: "internal", tool: "email_send", domains: ["Example.com"], effect: "allow" },
        { id: "rest", effect: "require_approval", approvers: ["chn_abc"] },
      ],
    });
    expect(p.rules.map((r) => r.id)).toEqual(["small-refunds", "internal", "rest"]);
    expect(p.rules[1].domains).toEqual(["example.com"]);
    expect(parsePolicy({ rules: [] }).rules).toEqual([]);
  });

  it("names the rule of each problem", () => {
    expect(
      problem({
        rules: [
          { id: "ok", effect: "allow" },
          { id: "big-refunds", effect: "maybe" },
        ],
      }),
    ).toMatch(/rule 2 "big-refunds": effect/);
    expect(problem({ rules: [{ id: "typo", effect: "deny", amount_lt: 5 }] })).toMatch(/rule 1 "typo": unknown condition amount_lt/);
    expect(problem({ rules: [{ effect: "deny" }] })).toMatch(/rule 1: id/);
    expect(
      problem({
        rules: [
          { id: "a", effect: "deny" },
          { id: "a", effect: "allow" },
        ],
      }),
    ).toMatch(/rule 2 "a": the id is used by an earlier rule/);
    expect(problem({ rules: [{ id: "never", effect: "deny", amount_gt: 100, amount_lte: 10 }] })).toMatch(/rule 1 "never": .*can never both hold/);
    expect(problem({ rules: [{ id: "star", effect: "deny", action: "re*fund" }] })).toMatch(/rule 1 "star": action/);
    expect(problem({ rules: [{ id: "dom", effect: "deny", domains: ["not a domain"] }] })).toMatch(/rule 1 "dom": domains/);
    expect(problem({ rules: [{ id: "who", effect: "deny", approvers: ["mario"] }] })).toMatch(/rule 1 "who": approvers/);
    expect(problem({ rules: [{ id: "t", effect: "deny", tool: "kv_set" }] })).toMatch(/rule 1 "t": tool/);
    expect(problem({ rules: ["allow everything"] })).toMatch(/rule 1:/);
  });

  it("refuses what is not {rules: [...]}", () => {
    expect(problem(undefined)).toMatch(/^policy: /);
    expect(problem([{ id: "a", effect: "allow" }])).toMatch(/^policy: /);
    expect(problem({ rules: [], version: 3 })).toMatch(/unknown key version/);
    expect(problem({ rules: Array.from({ length: 101 }, (_, i) => ({ id: `r${i}`, effect: "allow" })) })).toMatch(/policy.rules/);
  });

  it("lists every problem with its field", () => {
    const { problems } = policyProblems({
      rules: [
        { id: "a", effect: "x" },
        { id: "b", effect: "y" },
      ],
    });
    expect(problems.map((p) => p.field)).toEqual(["policy.rules.0.effect", "policy.rules.1.effect"]);
  });
});
