import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { loadRequest } from "@/lib/approvals/decide-request";
import { expireRequests } from "@/lib/approvals/expire-requests";
import { onRequestChange } from "@/lib/approvals/requests-channel";

/**
 * Waits up to `timeoutMs` for a request to leave `pending`, woken by the NOTIFY its decision sends on commit; a
 * timer covers only its expiry, which nothing announces. Outside any transaction; stops early on `signal`.
 * Returns the request as it stands at the end (expired on the way if its time ran out).
 */
export async function waitForRequest(
  db: Executor,
  opts: { projectId: string; requestId: string; timeoutMs: number; signal?: AbortSignal },
): Promise<ApprovalRequest> {
  const deadline = Date.now() + opts.timeoutMs;
  let poke: (() => void) | null = null;
  let poked = false;
  const stop = await onRequestChange((c) => {
    if (c.id !== opts.requestId || c.status === "pending") return;
    poked = true;
    poke?.();
  });
  const onAbort = () => poke?.();
  opts.signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      poked = false;
      let row = await loadRequest(db, opts.projectId, opts.requestId);
      if (row.status === "pending" && row.expiresAt.getTime() <= Date.now()) {
        await db.transaction((tx) => expireRequests(tx, { projectId: opts.projectId, requestId: row.id }));
        row = await loadRequest(db, opts.projectId, opts.requestId);
      }
      const now = Date.now();
      if (row.status !== "pending" || now >= deadline || opts.signal?.aborted) return row;
      // Just expired but another instance holds the row: its commit will NOTIFY; look again shortly regardless.
      const untilExpiry = row.expiresAt.getTime() - now;
      const sleep = Math.min(deadline - now, untilExpiry > 0 ? untilExpiry + 5 : 50);
      if (!poked) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, sleep));
          function done() {
            clearTimeout(timer);
            poke = null;
            resolve();
          }
          poke = done;
        });
      }
    }
  } finally {
    stop();
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
