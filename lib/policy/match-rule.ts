import type { PolicySubject, Rule } from "@/lib/policy/policy-schema";

const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

const actionMatches = (pattern: string, action: string) => (pattern.endsWith("*") ? action.startsWith(pattern.slice(0, -1)) : action === pattern);

/** `example.com` covers only that domain; `*.example.com` covers it and every subdomain. */
export function domainMatches(pattern: string, domain: string): boolean {
  const d = domain.toLowerCase();
  if (!pattern.startsWith("*.")) return d === pattern;
  const base = pattern.slice(2);
  return d === base || d.endsWith(`.${base}`);
}

const inList = (patterns: string[], domain: string) => patterns.some((p) => domainMatches(p, domain));

/** True when every condition of the rule holds for the subject; a condition about a fact the subject lacks fails. */
export function ruleMatches(rule: Rule, s: PolicySubject): boolean {
  const actions = list(rule.action);
  if (actions && (s.action === null || !actions.some((p) => actionMatches(p, s.action!)))) return false;
  const tools = list(rule.tool);
  if (tools && (s.tool === null || !tools.includes(s.tool))) return false;
  const risks = list(rule.risk);
  if (risks && (s.risk === null || !risks.includes(s.risk))) return false;
  if (rule.amount_lte !== undefined && (s.amount === null || !(s.amount <= rule.amount_lte))) return false;
  if (rule.amount_gt !== undefined && (s.amount === null || !(s.amount > rule.amount_gt))) return false;
  const domains = s.domains ?? [];
  if (rule.domains && (domains.length === 0 || !domains.every((d) => inList(rule.domains!, d)))) return false;
  if (rule.domains_any && !domains.some((d) => inList(rule.domains_any!, d))) return false;
  return true;
}
