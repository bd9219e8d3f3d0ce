import type { Executor } from "@/lib/db/client";
import { getPolicy } from "@/lib/policy/get-policy";
import { draftPolicy, getPolicyDraft } from "@/lib/policy/policy-draft";
import { type Simulation, simulatePolicy } from "@/lib/policy/simulate-policy";

/**
 * One request against the policy in force and against the saved draft, side by side ("in force → ask the owner;
 * draft → auto-approve"). `draft` is null when there is none. Reads only.
 */
export async function simulateAgainstDraft(db: Executor, projectId: string, s: Simulation) {
  const current = await getPolicy(db, projectId);
  const draft = await getPolicyDraft(db, projectId);
  const inForce = { version: current.version, ...(await simulatePolicy(db, projectId, s, current.policy)) };
  if (!draft) return { inForce, draft: null };
  return { inForce, draft: { baseVersion: draft.baseVersion, updatedAt: draft.updatedAt, ...(await simulatePolicy(db, projectId, s, draftPolicy(draft))) } };
}
