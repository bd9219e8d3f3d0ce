import type { Executor } from "@/lib/db/client";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { callbackJob } from "@/lib/approvals/callbacks/callback-job";

/** The Standard Webhooks body: `{type, timestamp, data}`; queued with the decision so it exists exactly when it does. */
export async function queueCallback(tx: Executor, opts: { projectId: string; url: string; eventId: string; payload: unknown }) {
  const now = new Date();
  const body = JSON.stringify({ type: "request.resolved", timestamp: now.toISOString(), data: opts.payload });
  await enqueueJob(
    tx,
    callbackJob,
    { projectId: opts.projectId, url: opts.url, eventId: opts.eventId, timestamp: Math.floor(now.getTime() / 1000), body },
    { projectId: opts.projectId, dedupeKey: opts.eventId },
  );
}
