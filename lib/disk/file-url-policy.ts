import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { gateToolCall } from "@/lib/approvals/gate-tool-call";
import { resumeToolApproval } from "@/lib/approvals/resume-tool-approval";
import { describeDuration } from "@/lib/approvals/describe-duration";
import { findSource } from "@/lib/disk/find-source";

export type FileUrlDecision =
  | { outcome: "allow" /** An approved request to mark used in the link's own transaction. */; consume: string | null }
  | { outcome: "pending" | "cancelled"; requestId: string; comment: string | null };

/**
 * The policy gate of file_url (tool `file_url`, risk `medium`): POLICY_DENIED on `deny`; on `require_approval` a
 * person is asked about exactly this path, expiry and key, and waits up to `waitSeconds`; with `approval`, that
 * request is looked up (same key, path and expires_in; one link per approval, within 24 h of the decision).
 * file_url calls this outside any transaction, so waiting holds no locks.
 */
export async function decideFileUrl(
  db: Executor,
  opts: { actor: Actor; path: string; expiresIn: number; approval?: string; waitSeconds: number; signal?: AbortSignal },
): Promise<FileUrlDecision> {
  const payload = { tool: "file_url", path: opts.path, expires_in: opts.expiresIn, key_id: opts.actor.keyId };
  // A missing file is NOT_FOUND before anyone is asked: a person would otherwise approve a link to nothing. (A call
  // with `approval` finds out when the link is made, in its own transaction, without using the approval up.)
  if (!opts.approval) await findSource(db, { projectId: opts.actor.projectId, path: opts.path });
  const gate = opts.approval
    ? await resumeToolApproval(db, {
        actor: opts.actor,
        tool: "file_url",
        requestId: opts.approval,
        payload,
        waitSeconds: opts.waitSeconds,
        signal: opts.signal,
      })
    : await gateToolCall(db, {
        actor: opts.actor,
        tool: "file_url",
        summary: `Create a public link to ${opts.path} for ${describeDuration(opts.expiresIn)}?`.slice(0, 300),
        details: `Anyone holding the link can download ${opts.path} without a key until it expires (${describeDuration(opts.expiresIn)} after it is created). Asked by ${opts.actor.agent ?? "an agent"} with key ${opts.actor.keyName ?? opts.actor.keyId ?? "unknown"}.`,
        payload,
        waitSeconds: opts.waitSeconds,
        signal: opts.signal,
      });
  if (gate.outcome === "allow") return { outcome: "allow", consume: gate.requestId };
  return gate;
}
