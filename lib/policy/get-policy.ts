import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { isTransaction } from "@/lib/db/transaction";
import { notifiedCache } from "@/lib/db/notified-cache";
import { policyVersions, type PolicyVersion } from "@/lib/db/schema/approvals";
import type { Policy, Rule } from "@/lib/policy/policy-schema";
import { latestPolicyVersion } from "@/lib/policy/statements";

export interface CurrentPolicy {
  version: number;
  policy: Policy;
  row: PolicyVersion | null;
}

/** Policies in force, per project, until applyPolicy invalidates them (notified-cache.ts). */
export const policyCache = notifiedCache<CurrentPolicy>("brynth_policy", { maxAgeMs: 10_000 });

/**
 * The policy in force: the newest version, or version 0 (no rules: every request goes to a person). Read through
 * the cache outside transactions only: a transaction may see a version of its own that could still roll back.
 */
export async function getPolicy(db: Executor, projectId: string): Promise<CurrentPolicy> {
  if (isTransaction(db)) return readPolicy(db, projectId);
  const hit = policyCache.get(projectId);
  if (hit) return hit;
  const epoch = policyCache.epoch();
  const current = await readPolicy(db, projectId);
  policyCache.set(epoch, projectId, current);
  return current;
}

async function readPolicy(db: Executor, projectId: string): Promise<CurrentPolicy> {
  const [row] = await latestPolicyVersion(db, projectId);
  if (!row) return { version: 0, policy: { rules: [] }, row: null };
  return { version: row.version, policy: { rules: row.rules as Rule[] }, row };
}

export async function getPolicyVersion(db: Executor, projectId: string, version: number) {
  const [row] = await db
    .select()
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, projectId), eq(policyVersions.version, version)));
  return row ?? null;
}

export async function listPolicyVersions(db: Executor, projectId: string, limit = 50) {
  return db.select().from(policyVersions).where(eq(policyVersions.projectId, projectId)).orderBy(desc(policyVersions.version)).limit(limit);
}
