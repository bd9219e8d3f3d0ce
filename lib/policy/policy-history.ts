import { and, desc, eq, lt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type PolicyVersion, policyVersions } from "@/lib/db/schema/approvals";
import { diffPolicies, type PolicyDiff } from "@/lib/policy/diff-policy";
import type { Rule } from "@/lib/policy/policy-schema";

export interface PolicyHistoryEntry {
  row: PolicyVersion;
  /** Against the version before it (version 1 against no rules). */
  diff: PolicyDiff;
}

/**
 * Applied versions, newest first, each with its diff against the one before. One extra row is read so the oldest
 * on the page has its predecessor; `before` pages back (versions are numbered 1, 2, 3 … with no gaps).
 */
export async function listPolicyHistory(
  db: Executor,
  projectId: string,
  opts: { limit: number; before?: number },
): Promise<{ entries: PolicyHistoryEntry[]; nextBefore: number | null }> {
  const rows = await db
    .select()
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, projectId), opts.before === undefined ? undefined : lt(policyVersions.version, opts.before)))
    .orderBy(desc(policyVersions.version))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const entries = page.map((row, i) => ({ row, diff: diffPolicies((rows[i + 1]?.rules ?? []) as Rule[], row.rules as Rule[]) }));
  const last = page.at(-1);
  return { entries, nextBefore: rows.length > opts.limit && last ? last.version : null };
}
