import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { emitEvent } from "@/lib/events/emit-event";
import { publishEventChange } from "@/lib/events/events-channel";
import { insertEvent } from "@/lib/events/insert-event";
import { appendEntry } from "@/lib/ledger/append-entry";
import { newId } from "@/lib/ids";
import { applyPolicy } from "@/lib/policy/apply-policy";
import type { Rule } from "@/lib/policy/policy-schema";
import { notifyRequestChange, publishRequestChange } from "@/lib/approvals/requests-channel";
import type { AfterCommit } from "@/lib/approvals/after-commit";
import { resolvedPayload } from "@/lib/approvals/resolved-payload";
import { queueCallback } from "@/lib/approvals/callbacks/queue-callback";
import { queueClose } from "@/lib/approvals/deliveries/queue-close";
import { settleEmailBatch } from "@/lib/approvals/email/settle-email-batch";

/**
 * Everything a decision sets off, in the deciding transaction, so all of it exists exactly when the decision does:
 * the `request.resolved` event, the ledger entry (who, through which channel, under which rule, and the hash of
 * what was approved), an approved policy's new version, a held email batch released or cancelled, the callback
 * delivery, the Telegram messages' update, and the wake-up of waiters.
 */
export async function resolveRequest(
  tx: Executor,
  row: ApprovalRequest,
  opts: {
    actor: Actor;
    op: "request.decide" | "request.expire";
    /** Set for a request the policy decided as it was created: notifications after commit, no messages to close. */
    created?: AfterCommit;
  },
): Promise<{ eventId: string; version: number | null }> {
  let version: number | null = null;
  if (row.kind === "policy" && row.status === "approved") {
    const proposal = row.payload as { rules: Rule[]; note: string | null; proposed_by: string | null };
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
  const payload = resolvedPayload(row, row.kind === "policy" ? { version } : {});
  // A request decided as it was created has no event yet: its id is known up front, so the event's INSERT and the
  // ledger's go out together (pipelined on the connection) instead of one round trip after the other.
  const eventId = opts.created ? newId("evt") : (
    await emitEvent(tx, { projectId: row.projectId, source: "brynth", type: "request.resolved", payload, trust: "brynth", dedupeKey: row.id })
  ).id;
  const emitted = opts.created ? emitAfterCommit(tx, eventId, row, payload, opts.created) : null;
  const ledgered = appendEntry(tx, {
    actor: opts.actor,
    op: opts.op,
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
  });
  await Promise.all([emitted, ledgered]);
  if (row.callbackUrl) await queueCallback(tx, { projectId: row.projectId, url: row.callbackUrl, eventId, payload });
  const change = { project: row.projectId, id: row.id, status: row.status };
  if (opts.created) {
    opts.created.push(() => publishRequestChange(change));
  } else {
    await queueClose(tx, row);
    await notifyRequestChange(tx, change);
  }
  return { eventId, version };
}

/** emitEvent's event under a chosen id, with its wake-up NOTIFY sent after the commit instead of inside the transaction. */
async function emitAfterCommit(tx: Executor, id: string, row: ApprovalRequest, payload: unknown, after: AfterCommit) {
  const json = JSON.stringify(payload);
  const { change } = await insertEvent(
    tx,
    {
      id,
      projectId: row.projectId,
      sourceId: null,
      source: "brynth",
      type: "request.resolved",
      trust: "brynth",
      body: { json },
      contentType: "application/json",
      payloadSize: Buffer.byteLength(json),
      headers: {},
      dedupeKey: row.id,
    },
    { notify: "caller-publishes" },
  );
  if (change) after.push(() => publishEventChange(change));
}
