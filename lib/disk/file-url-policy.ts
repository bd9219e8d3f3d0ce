import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";

export type FileUrlDecision =
  | { outcome: "allow" }
  | { outcome: "pending" | "cancelled"; requestId: string; comment: string | null };

/**
 * The policy gate of file_url (tool `file_url`, risk `medium`). Until the approvals module provides policies, the
 * project default `allow` applies and no approval request can exist. The approvals module replaces this body with
 * its decision: throw POLICY_DENIED on `deny`; on `require_approval` ask (or, with `approval`, look up that request:
 * same key, path and expires_in, within 24 h of the decision, one link per approval) and wait up to `waitSeconds`.
 * file_url calls this outside any transaction, so waiting holds no locks.
 */
export async function decideFileUrl(
  _db: Executor,
  opts: { actor: Actor; path: string; expiresIn: number; approval?: string; waitSeconds: number; signal?: AbortSignal },
): Promise<FileUrlDecision> {
  if (opts.approval !== undefined) {
    throw notFound(`Approval request ${opts.approval}`, "Call file_url without approval: this project's policy allows links directly.");
  }
  return { outcome: "allow" };
}
