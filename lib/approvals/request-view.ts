import type { ApprovalRequest } from "@/lib/db/schema/approvals";

const hints: Partial<Record<ApprovalRequest["status"], (r: ApprovalRequest) => string>> = {
  pending: (r) =>
    `Nobody has decided yet. Save your state, then resume with request_status {request_id: "${r.id}"}; the request expires at ${r.expiresAt.toISOString()}.`,
  needs_context: () => "The person needs more context: read comment, then open a new request with fuller details; do not repeat this one.",
  expired: () => "Nobody decided in time: treat it as not approved.",
  denied: () => "Not approved: do not proceed.",
};

/** What ask_approval, ask_human, policy_set and request_status return about a request. */
export function requestView(r: ApprovalRequest, extra: { version?: number | null } = {}) {
  const hint = hints[r.status]?.(r);
  return {
    request_id: r.id,
    kind: r.kind,
    status: r.status,
    decision: r.decision,
    comment: r.comment,
    decided_by: r.decidedBy,
    decided_at: r.decidedAt?.toISOString() ?? null,
    expires_at: r.expiresAt.toISOString(),
    state_ref: r.stateRef,
    ...(hint ? { hint } : {}),
    ...(extra.version !== undefined ? { version: extra.version } : {}),
  };
}
