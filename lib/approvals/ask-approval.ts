import type { Actor } from "@/lib/actor";
import type { Db } from "@/lib/db/client";
import type { RiskLevel } from "@/lib/db/schema/approvals";
import { getPolicy } from "@/lib/policy/get-policy";
import { evaluatePolicy } from "@/lib/policy/evaluate-policy";
import { askPerson } from "@/lib/approvals/ask-person";

export interface AskApprovalInput {
  action: string;
  summary: string;
  details?: string;
  risk: RiskLevel;
  amount?: number;
  options?: string[];
  waitSeconds: number;
  expiresInMs: number;
  approvers?: string[];
  stateRef?: string;
  callbackUrl?: string;
}

/** ask_approval: the policy may decide at once; otherwise the request goes to people and this waits. */
export async function askApproval(db: Db, opts: { actor: Actor; signal?: AbortSignal } & AskApprovalInput) {
  // Read before the request's transaction begins, where the cache may serve it (and where PGlite's one connection
  // is free: inside the transaction, a query on `db` would wait for the transaction itself).
  const current = await getPolicy(db, opts.actor.projectId);
  return askPerson(db, {
    actor: opts.actor,
    waitSeconds: opts.waitSeconds,
    signal: opts.signal,
    build: async () => {
      const verdict = evaluatePolicy(current.policy, {
        action: opts.action,
        tool: null,
        risk: opts.risk,
        amount: opts.amount ?? null,
        domains: null,
      });
      return {
        kind: "approval",
        action: opts.action,
        summary: opts.summary,
        details: opts.details ?? null,
        risk: opts.risk,
        amount: opts.amount ?? null,
        options: opts.options ?? [],
        expiresInMs: opts.expiresInMs,
        approvers: opts.approvers,
        stateRef: opts.stateRef ?? null,
        callbackUrl: opts.callbackUrl ?? null,
        verdict: { ...verdict, version: current.version },
      };
    },
  });
}
