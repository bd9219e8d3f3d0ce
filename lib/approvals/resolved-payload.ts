import type { ApprovalRequest } from "@/lib/db/schema/approvals";

/** The `request.resolved` event's payload, also the body of callback_url deliveries. */
export function resolvedPayload(r: ApprovalRequest, extra: { version?: number | null } = {}) {
  return {
    request_id: r.id,
    kind: r.kind,
    action: r.action,
    summary: r.summary,
    status: r.status,
    decision: r.decision,
    comment: r.comment,
    decided_by: r.decidedBy,
    decided_at: r.decidedAt?.toISOString() ?? null,
    state_ref: r.stateRef,
    action_hash: r.actionHash,
    ...(extra.version !== undefined ? { version: extra.version } : {}),
  };
}
