import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { emitEvent } from "@/lib/events/emit-event";
import { newId } from "@/lib/ids";
import { applyPolicy, requireVersionInForce } from "@/lib/policy/apply-policy";
import { checkRuleApprovers } from "@/lib/approvals/propose-policy";
import type { Rule } from "@/lib/policy/policy-schema";
import { notifyRequestChange } from "@/lib/approvals/requests-channel";
import { resolvedPayload } from "@/lib/approvals/resolved-payload";
import { queueCallback } from "@/lib/approvals/callbacks/queue-callback";
import { queueClose } from "@/lib/approvals/deliveries/queue-close";
import { settleEmailBatch } from "@/lib/approvals/email/settle-email-batch";
import { settleDraftApproval } from "@/lib/mail/drafts/settle-draft-approval";

/** A decision as the ledger records it (record-system-act.ts). */
export interface DecisionRecord {
  subject: string;
  input: Record<string, unknown>;
  output: { event_id: string; version: number | null };
}

/**
 * Everything a decision sets off, in the deciding transaction, so all of it exists exactly when the decision does:
 * the `request.resolved` event, an approved policy's new version, a held email batch or draft sent or cancelled, the callback
 * delivery, the Telegram messages' update, and the wake-up of waiters. Returns what the system records when the
 * decision is its own (an expiry, a policy's verdict): who, through which channel, under which rule, and the hash of
 * what was approved.
 */
export async function resolveRequest(
  tx: Executor,
  row: ApprovalRequest,
  opts: {
    actor: Actor;
    /** Set for a request the policy decided as it was created: its event's id is chosen up front, no messages to close. */
    created?: boolean;
  },
): Promise<{ eventId: string; version: number | null; record: DecisionRecord }> {
  let version: number | null = null;
  if (row.kind === "policy" && row.status === "approved") {
    const proposal = row.payload as { rules: Rule[]; note: string | null; proposed_by: string | null; based_on?: number };
    // A channel its rules name may have been removed since it was proposed (channel_remove withdraws such proposals;
    // one written while the removal ran escapes it): a policy in force names live channels only, so it is refused.
    await checkRuleApprovers(tx, row.projectId, { rules: proposal.rules });
    // The proposal replaces the whole policy, written against the version then in force: approved after another was
    // applied (the owner's own draft, a revert), it would silently drop that one's rules. (Proposals made before
    // based_on was kept are approved as they were.)
    if (proposal.based_on !== undefined) {
      await requireVersionInForce(
        tx,
        row.projectId,
        proposal.based_on,
        `this proposal was made against version ${proposal.based_on}, and approving it would drop what changed since. Nothing was applied.`,
        (v) => `Reject it with a comment so the agent proposes again against version ${v}, or put its rules in a draft on the Policy screen.`,
      );
    }
    ({ version } = await applyPolicy(tx, {
      actor: opts.actor,
      policy: { rules: proposal.rules },
      note: proposal.note,
      proposedBy: proposal.proposed_by,
      approvedBy: row.decidedBy ?? "unknown",
      approvedVia: row.decidedChannelId ?? "dashboard",
      requestId: row.id,
    }));
  }
  if (row.kind === "tool" && row.action === "email_send") await settleEmailBatch(tx, row);
  if (row.kind === "tool" && row.action === "send_draft") await settleDraftApproval(tx, row);
  const payload = resolvedPayload(row, row.kind === "policy" ? { version } : {});
  // A request decided as it was created has no event yet: its id is known up front, so the event's INSERT and the
  // ledger's go out together (pipelined on the connection) instead of one round trip after the other.
  const resolved = { projectId: row.projectId, source: "brynth", type: "request.resolved", payload, trust: "brynth", dedupeKey: row.id } as const;
  const eventId = opts.created ? newId("evt") : (await emitEvent(tx, resolved)).id;
  const emitted = opts.created ? emitEvent(tx, { ...resolved, id: eventId }) : null;
  await emitted;
  if (row.callbackUrl) await queueCallback(tx, { projectId: row.projectId, url: row.callbackUrl, eventId, payload });
  if (!opts.created) await queueClose(tx, row);
  notifyRequestChange(tx, { project: row.projectId, id: row.id, status: row.status });
  const record: DecisionRecord = {
    subject: row.id,
    input: {
      status: row.status,
      decision: row.decision,
      comment: row.comment,
      decided_by: row.decidedBy,
      channel_id: row.decidedChannelId,
      rule: row.rule,
      policy_version: row.policyVersion,
      action_hash: row.actionHash,
    },
    output: { event_id: eventId, version },
  };
  return { eventId, version, record };
}
