import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { gateToolCall } from "@/lib/approvals/gate-tool-call";
import { loadRequest } from "@/lib/approvals/decide-request";
import { resumeToolApproval } from "@/lib/approvals/resume-tool-approval";
import { describeDuration } from "@/lib/approvals/describe-duration";
import { findSource } from "@/lib/disk/find-source";
import { diskPath } from "@/lib/disk/path-rules";

export type FileUrlDecision =
  | {
      outcome: "allow";
      /** An approved request to mark used in the link's own transaction. */
      consume: string | null;
      /** With an approval: the file version the person was asked about (null: an attachment), the only one linked. */
      fileId?: string | null;
    }
  | { outcome: "pending" | "cancelled"; requestId: string; comment: string | null };

/**
 * The policy gate of file_url (tool `file_url`, risk `medium`): POLICY_DENIED on `deny`; on `require_approval` a
 * person is asked about exactly this path, expiry, key and file version, and waits up to `waitSeconds`; with
 * `approval`, that request is looked up (same key, path and expires_in; one link per approval, within 24 h of the
 * decision). A file replaced since the person was asked gets no link under that approval: they approved sharing
 * the bytes that were there, as email_send's approval covers exactly the stored message.
 * file_url calls this outside any transaction, so waiting holds no locks.
 */
export async function decideFileUrl(
  db: Executor,
  opts: { actor: Actor; path: string; expiresIn: number; approval?: string; waitSeconds: number; signal?: AbortSignal },
): Promise<FileUrlDecision> {
  const find = () => findSource(db, { projectId: opts.actor.projectId, path: opts.path });
  const call = { tool: "file_url", path: opts.path, expires_in: opts.expiresIn, key_id: opts.actor.keyId };
  if (opts.approval) {
    const asked = await loadRequest(db, opts.actor.projectId, opts.approval).catch(() => null);
    const payload = asked?.payload;
    // Asked before requests named the file version (a4e4056): its payload has no file_id, so it is resumed as it
    // was asked (waiting, denial, expiry and one use as any other) and then proves no version, as a replaced file.
    const unversioned = typeof payload === "object" && payload !== null && !("file_id" in payload);
    // null for an attachment (never replaced); the arguments themselves are checked by resumeToolApproval.
    const askedFileId = (payload as { file_id?: string | null } | undefined)?.file_id ?? null;
    // Asked before paths were spelled NFC (7f788b0, migration 0029): the request names the path as the call spelled
    // it then, perhaps decomposed, and stays as the person was shown it (action_hash covers it). Today's call arrives
    // in NFC, so a stored path that is the same path in NFC stands for it; any other path is still another call.
    const askedPath = (payload as { path?: unknown } | undefined)?.path;
    const path = typeof askedPath === "string" && diskPath(askedPath) === diskPath(opts.path) ? askedPath : opts.path;
    const gate = await resumeToolApproval(db, {
      actor: opts.actor,
      tool: "file_url",
      requestId: opts.approval,
      payload: { ...call, path, ...(unversioned ? {} : { file_id: askedFileId }) },
      waitSeconds: opts.waitSeconds,
      signal: opts.signal,
    });
    if (gate.outcome !== "allow") return gate;
    // Without using the approval up: that happens with the link, in its own transaction. An unversioned approval of
    // an attachment still holds (its bytes never change); of a file it cannot show which bytes the person saw.
    const src = await find();
    if (askedFileId !== src.fileId) {
      return {
        outcome: "cancelled",
        requestId: opts.approval,
        comment: unversioned
          ? `This approval was asked for before approvals named the file's version, so it cannot show that ${src.path} is still the file the person saw. Make a new call without approval to ask again.`
          : `${src.path} was replaced since the person was asked: the approval was for the file as it was then. Make a new call to ask about it as it is now.`,
      };
    }
    return { outcome: "allow", consume: gate.requestId, fileId: askedFileId };
  }
  // A missing file is NOT_FOUND before anyone is asked: a person would otherwise approve a link to nothing.
  const src = await find();
  const gate = await gateToolCall(db, {
    actor: opts.actor,
    tool: "file_url",
    summary: `Create a public link to ${opts.path} for ${describeDuration(opts.expiresIn)}?`.slice(0, 300),
    details: `Anyone holding the link can download ${opts.path} without a key until it expires (${describeDuration(opts.expiresIn)} after it is created). Asked by ${opts.actor.agent ?? "an agent"} with key ${opts.actor.keyName ?? opts.actor.keyId ?? "unknown"}.`,
    payload: { ...call, file_id: src.fileId },
    waitSeconds: opts.waitSeconds,
    signal: opts.signal,
  });
  if (gate.outcome === "allow") return { outcome: "allow", consume: gate.requestId, ...(gate.requestId ? { fileId: src.fileId } : {}) };
  return gate;
}
