import type { Actor } from "@/lib/actor";
import { systemActor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalRequests, type ApprovalRequest, type RequestKind, type RiskLevel } from "@/lib/db/schema/approvals";
import { newId } from "@/lib/ids";
import { channelsTurn } from "@/lib/channels/channels-turn";
import { listChannels } from "@/lib/channels/list-channels";
import { shareTurn } from "@/lib/db/turn-lock";
import { resolveApprovers } from "@/lib/policy/resolve-approvers";
import { policyDecider, type Verdict } from "@/lib/policy/evaluate-policy";
import { actionHash } from "@/lib/approvals/action-hash";
import { checkApprovers } from "@/lib/approvals/check-approvers";
import { resolveRequest } from "@/lib/approvals/resolve-request";
import { DECIDE_OP } from "@/lib/approvals/decide-request";
import { recordSystemAct } from "@/lib/ledger/record-system-act";
import { queueDeliveries } from "@/lib/approvals/deliveries/queue-deliveries";
import { notifyRequestChange } from "@/lib/approvals/requests-channel";
import { checkPendingCap } from "@/lib/approvals/pending-cap";

export interface NewRequest {
  kind: RequestKind;
  action: string | null;
  summary: string;
  details?: string | null;
  risk?: RiskLevel | null;
  amount?: number | null;
  options?: string[];
  expiresInMs: number;
  approvers?: string[];
  stateRef?: string | null;
  callbackUrl?: string | null;
  /** The exact action shown and approved (tool calls, policy proposals). */
  payload?: unknown;
  /** What the policy said, when it applies to this kind of request (not for questions or proposals). */
  verdict?: Verdict & { version: number };
}

const decidedStatus = { allow: "approved", auto_approve: "approved", auto_approve_notify: "approved", deny: "denied" } as const;

/**
 * Writes a request in the caller's transaction. A policy verdict that decides at once writes it decided
 * (`decided_by: "policy:<rule>"`) and resolves it; otherwise it is pending and sent to its approvers' channels.
 */
export async function createRequest(tx: Executor, opts: { actor: Actor } & NewRequest): Promise<ApprovalRequest> {
  const { actor, verdict } = opts;
  const effect = verdict?.effect ?? "require_approval";
  const status = effect === "require_approval" ? "pending" : decidedStatus[effect];
  // Nobody is asked or told when the policy approves or denies outright: the channels are read only when needed.
  const needsChannels = status === "pending" || effect === "auto_approve_notify" || Boolean(opts.approvers?.length);
  // Read in the channels' shared turn: a channel_remove then waits for this request, or this reads it removed.
  if (needsChannels) await shareTurn(tx, channelsTurn(actor.projectId));
  const channels = needsChannels ? await listChannels(tx, actor.projectId) : [];
  checkApprovers(opts.approvers, channels);
  const approvers = needsChannels
    ? resolveApprovers({
        ruleApprovers: verdict?.rule?.approvers,
        requested: opts.approvers,
        channels: channels.map((c) => ({ id: c.id, kind: c.kind, active: c.status === "active" })),
      })
    : [];
  if (status === "pending") await checkPendingCap(tx, actor);
  const now = new Date();
  const shown = {
    kind: opts.kind,
    action: opts.action,
    summary: opts.summary,
    details: opts.details ?? null,
    risk: opts.risk ?? null,
    amount: opts.amount ?? null,
    options: opts.options ?? [],
    payload: opts.payload ?? null,
  };
  const [row] = await tx
    .insert(approvalRequests)
    .values({
      id: newId("req"),
      projectId: actor.projectId,
      ...shown,
      status,
      decidedBy: status === "pending" ? null : policyDecider(verdict?.rule ?? null),
      decidedAt: status === "pending" ? null : now,
      expiresAt: new Date(now.getTime() + opts.expiresInMs),
      approvers,
      rule: verdict?.rule?.id ?? null,
      policyVersion: verdict?.version ?? 0,
      stateRef: opts.stateRef ?? null,
      callbackUrl: opts.callbackUrl ?? null,
      keyId: actor.keyId,
      agent: actor.agent,
      platform: actor.platform,
      actionHash: actionHash(shown),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (status !== "pending") {
    const policyActor = { ...systemActor(actor.projectId), agent: row.decidedBy };
    const { record } = await resolveRequest(tx, row, { actor: policyActor, created: true });
    // The policy's verdict is the system's own act, recorded as such beside the asking call's entry.
    await recordSystemAct(tx, { projectId: row.projectId, op: DECIDE_OP, agent: row.decidedBy, ...record });
    if (effect === "auto_approve_notify") await queueDeliveries(tx, row, { notice: true });
    return row;
  }
  await queueDeliveries(tx, row, { notice: false });
  notifyRequestChange(tx, { project: row.projectId, id: row.id, status: "pending" });
  return row;
}
