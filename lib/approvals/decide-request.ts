import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { approvalRequests, type ApprovalChannel, type ApprovalRequest, type RequestStatus } from "@/lib/db/schema/approvals";
import { AppError, notFound } from "@/lib/errors";
import { resolveRequest } from "@/lib/approvals/resolve-request";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { verdictProblem, type PersonVerdict } from "@/lib/approvals/person-verdict";
import { lockHeldDraft } from "@/lib/mail/drafts/settle-draft-approval";

/** The ledger op of a decision, whichever pipeline takes it (dashboard, owner REST, emailed link, Telegram). */
export const DECIDE_OP = "request.decide";

/**
 * A person's decision, through one channel. Exactly one decision per request: the update only applies while the
 * request is pending and unexpired (database clock), so of two channels answering at once the first wins and the
 * second is told it was already decided; nothing is decided after `expires_at`; and a channel removed while its
 * decision waited on the request's row decides nothing.
 */
export async function decideRequest(
  tx: Executor,
  opts: { actor: Actor; requestId: string; verdict: PersonVerdict; channel: ApprovalChannel; decidedBy: string },
): Promise<ApprovalRequest> {
  const { actor, channel } = opts;
  const current = await loadRequest(tx, actor.projectId, opts.requestId);
  if (channel.status !== "active" || channel.projectId !== actor.projectId) throw inactiveChannel();
  if (channel.kind !== "owner" && !current.approvers.includes(channel.id)) {
    throw new AppError("forbidden", `Request ${current.id} was not sent to ${channel.label}.`, {
      fix: "Decide from a channel the request was sent to, or from the dashboard.",
    });
  }
  const problem = verdictProblem(current, opts.verdict);
  if (problem) throw new AppError("validation_error", problem.message, { details: [problem], fix: "Choose one of the request's answers." });
  const { status, decision } = outcome(opts.verdict, current.kind);
  if (current.kind === "tool" && current.action === "send_draft") await lockHeldDraft(tx, current);
  const [row] = await tx
    .update(approvalRequests)
    .set({
      status,
      decision,
      comment: opts.verdict.comment?.trim() || null,
      decidedBy: opts.decidedBy,
      decidedChannelId: channel.id,
      decidedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(approvalRequests.id, current.id),
        eq(approvalRequests.projectId, actor.projectId),
        eq(approvalRequests.status, "pending"),
        sql`${approvalRequests.expiresAt} > now()`,
        // Checked again under the row lock: a channel_remove committing meanwhile has moved the request to the owner.
        channel.kind === "owner" ? undefined : sql`${approvalRequests.approvers} ? ${channel.id}`,
      ),
    )
    .returning();
  if (!row) throw await alreadyDecided(tx, current);
  await resolveRequest(tx, row, { actor });
  return row;
}

/** Still pending, but not this channel's to decide any more: it is not active (removed, perhaps just now). */
const inactiveChannel = () => new AppError("forbidden", "This channel is not active.", { fix: "Decide from the dashboard or another active channel." });

function outcome(v: PersonVerdict, kind: ApprovalRequest["kind"]): { status: RequestStatus; decision: string | null } {
  switch (v.outcome) {
    case "approve":
      return { status: "approved", decision: null };
    case "deny":
      return { status: "denied", decision: null };
    case "option":
      return { status: kind === "question" ? "answered" : "modified", decision: v.option };
    case "answer":
      return { status: "answered", decision: v.text.trim() };
    case "needs_context":
      return { status: "needs_context", decision: null };
  }
}

export async function loadRequest(db: Executor, projectId: string, requestId: string): Promise<ApprovalRequest> {
  const [row] = await db
    .select()
    .from(approvalRequests)
    .where(and(eq(approvalRequests.projectId, projectId), eq(approvalRequests.id, requestId)));
  if (!row) throw notFound(`Request ${requestId}`, "Check the request_id returned by ask_approval, ask_human or policy_set.");
  return row;
}

/**
 * The loser of a race (or a late answer): says what happened instead; an overdue request is expired on the way. One
 * still pending was moved off the deciding channel by its removal.
 */
async function alreadyDecided(tx: Executor, before: ApprovalRequest): Promise<AppError> {
  if (before.status === "pending") await expireRequests(tx, { projectId: before.projectId, requestId: before.id });
  const now = await loadRequest(tx, before.projectId, before.id);
  if (now.status === "pending") return inactiveChannel();
  const what = now.status === "expired" ? "expired" : `already decided: ${now.status.replace("_", " ")}${now.decidedBy ? ` by ${now.decidedBy}` : ""}`;
  return new AppError("ALREADY_DECIDED", `Request ${now.id} is ${what}.`, {
    fix: "Nothing to do: a request takes one decision.",
    details: { status: now.status, decided_by: now.decidedBy, decided_at: now.decidedAt?.toISOString() ?? null },
  });
}
