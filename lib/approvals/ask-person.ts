import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { createRequest, type NewRequest } from "@/lib/approvals/create-request";
import { waitForRequest } from "@/lib/approvals/wait-for-request";

/**
 * The shape of ask_approval, ask_human and policy_set: write the request in a transaction of its own (so people
 * can see it while the agent waits), then wait up to `waitSeconds` without holding a transaction.
 */
export async function askPerson(
  db: Executor,
  opts: {
    actor: Actor;
    waitSeconds: number;
    signal?: AbortSignal;
    build: (tx: Executor) => Promise<NewRequest>;
  },
): Promise<ApprovalRequest> {
  const created = await db.transaction(async (tx) => createRequest(tx, { actor: opts.actor, ...(await opts.build(tx)) }));
  if (created.status !== "pending" || opts.waitSeconds === 0) return created;
  return waitForRequest(db, {
    projectId: opts.actor.projectId,
    requestId: created.id,
    timeoutMs: opts.waitSeconds * 1000,
    signal: opts.signal,
    waiter: opts.actor,
  });
}
