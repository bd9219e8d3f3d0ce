import { eq, sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { policyVersions } from "@/lib/db/schema/approvals";
import { projects } from "@/lib/db/schema/projects";
import type { Policy } from "@/lib/policy/policy-schema";
import { getPolicy, policyCache } from "@/lib/policy/get-policy";
import { AppError } from "@/lib/errors";

/**
 * Holds the project's policy versions until the transaction ends: a caller that checks the version in force before
 * applying (revert, an apply that names the version it expects) takes it first, so its check still holds when the
 * next version is numbered.
 */
export async function lockPolicy(tx: Executor, projectId: string): Promise<void> {
  await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
}

/**
 * CONFLICT unless `expected` is the version in force, checked under the policy lock: a change reviewed against one
 * version (a draft, a revert from the history page, an agent's proposal) that replaced another applied since would
 * silently drop that one's rules. `refused` says what did not happen, `fix` what to do instead.
 */
export async function requireVersionInForce(tx: Executor, projectId: string, expected: number, refused: string, fix: (inForce: number) => string) {
  await lockPolicy(tx, projectId);
  const { version } = await getPolicy(tx, projectId);
  if (version !== expected) throw new AppError("CONFLICT", `Version ${version} is in force now, not version ${expected}: ${refused}`, { fix: fix(version) });
}

/**
 * Puts a checked policy in force as the next version. Versions of one project are numbered under a row lock on the
 * project, so two approvals at once get 4 and 5, never two 4s. The call that approved it is ledgered by its pipeline.
 */
export async function applyPolicy(
  tx: Executor,
  opts: {
    actor: Actor;
    policy: Policy;
    note?: string | null;
    proposedBy: string | null;
    approvedBy: string;
    approvedVia: string;
    requestId?: string | null;
  },
): Promise<{ version: number }> {
  const projectId = opts.actor.projectId;
  await lockPolicy(tx, projectId);
  const [next] = await tx
    .select({ v: sql<number>`coalesce(max(${policyVersions.version}), 0)::int + 1` })
    .from(policyVersions)
    .where(eq(policyVersions.projectId, projectId));
  const version = next.v;
  await tx.insert(policyVersions).values({
    projectId,
    version,
    rules: opts.policy.rules,
    note: opts.note ?? null,
    proposedBy: opts.proposedBy,
    approvedBy: opts.approvedBy,
    approvedVia: opts.approvedVia,
    requestId: opts.requestId ?? null,
  });
  policyCache.invalidate(tx);
  return { version };
}
