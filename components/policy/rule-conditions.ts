import type { Rule } from "@/lib/policy/policy-schema";

const list = (v: string | string[]) => (Array.isArray(v) ? v.join(" or ") : v);

/** A rule's conditions as a person reads them, e.g. "action refund · amount ≤ 50". */
export function ruleConditions(r: Rule): string {
  const parts = [
    r.action !== undefined ? `action ${list(r.action)}` : null,
    r.tool !== undefined ? `tool ${list(r.tool)}` : null,
    r.risk !== undefined ? `risk ${list(r.risk)}` : null,
    r.amount_gt !== undefined ? `amount > ${r.amount_gt}` : null,
    r.amount_lte !== undefined ? `amount ≤ ${r.amount_lte}` : null,
    r.domains ? `all recipients at ${r.domains.join(", ")}` : null,
    r.domains_any ? `any recipient at ${r.domains_any.join(", ")}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "everything";
}
