import { and, count, eq, gt, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { takeTurn } from "@/lib/db/turn-lock";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

const RETRY_AFTER_S = 60;

/**
 * A key (or grant) holds at most KEY_MAX_PENDING_REQUESTS requests waiting for a person: every new one messages the
 * approvers' channels, and the call rate alone would let a looping agent send 6,000 a minute. Called in the
 * transaction that writes the request, before it; the key's asks take turns on an advisory lock, so concurrent
 * ones cannot both take the last place. Owners asking through their own credentials are not capped.
 */
export async function checkPendingCap(tx: Executor, actor: Actor): Promise<void> {
  if (!actor.keyId) return;
  await takeTurn(tx, `approval_requests:${actor.projectId}:${actor.keyId}`);
  const cap = env().KEY_MAX_PENDING_REQUESTS;
  const [{ n, first }] = await tx
    .select({ n: count(), first: sql<string | null>`min(${approvalRequests.expiresAt})::text` })
    .from(approvalRequests)
    .where(
      and(
        eq(approvalRequests.projectId, actor.projectId),
        eq(approvalRequests.status, "pending"),
        eq(approvalRequests.keyId, actor.keyId),
        gt(approvalRequests.expiresAt, sql`now()`),
      ),
    );
  if (n >= cap) {
    // A place frees when a person answers (any time) or, at the latest, when the first of them expires; a minute
    // is a fair time to look again, sooner when that expiry is sooner.
    const untilExpiry = first ? Math.ceil((Date.parse(first) - Date.now()) / 1000) : RETRY_AFTER_S;
    const retryAfter = Math.max(1, Math.min(RETRY_AFTER_S, untilExpiry));
    throw new AppError("rate_limited", `This key already has ${n} requests waiting for a person, the most it may have at once (${cap}).`, {
      fix: `Wait until people answer or the requests expire (request_status shows each), then ask again: retry after ${retryAfter} s.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}
