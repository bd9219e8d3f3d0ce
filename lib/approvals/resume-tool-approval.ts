import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { GatedTool } from "@/lib/policy/policy-schema";
import { stableJson } from "@/lib/json/stable-json";
import { loadRequest } from "@/lib/approvals/decide-request";
import { gateOutcome, type GateResult } from "@/lib/approvals/gate-tool-call";
import { waitForRequest } from "@/lib/approvals/wait-for-request";
import { expireRequests } from "@/lib/approvals/expire-requests";

/** An approval gives its one result within this long of the decision. */
export const APPROVAL_USE_MS = 24 * 3600_000;

/**
 * A tool call that comes back with the `request_id` its first call got (file_url's `approval`): the same key must
 * ask for exactly the action the person saw; while pending it waits like the first call; once approved it is
 * good for one use within 24 hours of the decision.
 */
export async function resumeToolApproval(
  db: Executor,
  opts: { actor: Actor; tool: GatedTool; requestId: string; payload: unknown; waitSeconds: number; signal?: AbortSignal },
): Promise<GateResult> {
  const found = await loadRequest(db, opts.actor.projectId, opts.requestId).catch(() => null);
  if (found?.kind !== "tool" || found.action !== opts.tool) {
    throw notFound(`Approval request ${opts.requestId} for ${opts.tool}`, `Pass the request_id an earlier ${opts.tool} call returned.`);
  }
  if (found.keyId !== opts.actor.keyId) {
    throw new AppError("forbidden", "This approval was asked for by another key.", { fix: "Use the key that made the first call." });
  }
  if (stableJson(found.payload) !== stableJson(opts.payload)) {
    throw new AppError("validation_error", "approval: was given for a different call; repeat the exact arguments of the call that asked.", {
      details: [{ field: "approval", message: "arguments differ from the approved call" }],
      fix: "Call again with the same arguments as the call that returned this request_id, or make a new call without approval.",
    });
  }
  const overdue = found.status === "pending" && found.expiresAt.getTime() <= Date.now();
  const row = overdue
    ? // Expired here, as request_status does, rather than answered `pending` until the sweep gets to it.
      await expireNow(db, found.projectId, found.id)
    : found.status === "pending" && opts.waitSeconds > 0
      ? await waitForRequest(db, {
          projectId: found.projectId,
          requestId: found.id,
          timeoutMs: opts.waitSeconds * 1000,
          signal: opts.signal,
          waiter: opts.actor,
        })
      : found;
  const result = gateOutcome(row);
  if (result.outcome !== "allow") return result;
  if (row.consumedAt) {
    throw new AppError("CONFLICT", `Approval ${row.id} has given its one result already.`, { fix: "Make a new call without approval to ask again." });
  }
  if (row.decidedAt && Date.now() - row.decidedAt.getTime() > APPROVAL_USE_MS) {
    return { outcome: "cancelled", requestId: row.id, comment: "The approval is more than 24 hours old; make a new call to ask again." };
  }
  return result;
}

async function expireNow(db: Executor, projectId: string, requestId: string) {
  await db.transaction((tx) => expireRequests(tx, { projectId, requestId }));
  return loadRequest(db, projectId, requestId);
}
