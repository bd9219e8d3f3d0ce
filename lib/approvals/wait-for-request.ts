import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { loadRequest } from "@/lib/approvals/decide-request";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { onRequestChange } from "@/lib/approvals/requests-channel";
import { longPoll } from "@/lib/db/long-poll";
import { takeWaitSlot } from "@/lib/keys/wait-slots";

/**
 * Waits up to `timeoutMs` for a request to leave `pending`, woken by the NOTIFY its decision sends on commit; a
 * timer covers only its expiry, which nothing announces. Outside any transaction; stops early on `signal`.
 * Returns the request as it stands at the end (expired on the way if its time ran out).
 */
export async function waitForRequest(
  db: Executor,
  opts: { projectId: string; requestId: string; timeoutMs: number; signal?: AbortSignal; waiter?: Pick<Actor, "type" | "keyId"> },
): Promise<ApprovalRequest> {
  // The request is already written: a key holding KEY_MAX_WAITS waits gets its state now, as with wait_seconds 0
  // (pending, to resume with request_status), rather than an error that would hide the request it made.
  const release = opts.waiter ? takeWaitSlot(opts.waiter) : () => {};
  try {
    return await waitUpTo(db, { ...opts, timeoutMs: release ? opts.timeoutMs : 0 });
  } finally {
    release?.();
  }
}

async function waitUpTo(db: Executor, opts: { projectId: string; requestId: string; timeoutMs: number; signal?: AbortSignal }): Promise<ApprovalRequest> {
  const current = async () => {
    const row = await loadRequest(db, opts.projectId, opts.requestId);
    if (row.status !== "pending" || row.expiresAt.getTime() > Date.now()) return row;
    await db.transaction((tx) => expireRequests(tx, { projectId: opts.projectId, requestId: row.id }));
    return loadRequest(db, opts.projectId, opts.requestId);
  };
  const waited = await longPoll<ApprovalRequest>({
    // A LISTEN re-established after a lost connection may have missed the decision: look again then.
    subscribe: (wake) => onRequestChange((c) => c.id === opts.requestId && c.status !== "pending" && wake(), wake),
    check: async () => {
      const row = await current();
      if (row.status !== "pending") return { result: row };
      // Just expired but another instance holds the row: its commit will NOTIFY; look again shortly regardless.
      const untilExpiry = row.expiresAt.getTime() - Date.now();
      return { sleepMs: untilExpiry > 0 ? untilExpiry + 5 : 50 };
    },
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
  });
  return "result" in waited ? waited.result : loadRequest(db, opts.projectId, opts.requestId);
}
