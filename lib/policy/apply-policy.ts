import { sql } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { policyVersions } from "@/lib/db/schema/approvals";
import { queryRows } from "@/lib/db/rows";
import { appendEntry } from "@/lib/ledger/append-entry";
import type { Policy } from "@/lib/policy/policy-schema";
import { policyCache } from "@/lib/policy/get-policy";

/**
 * Puts a checked policy in force as the next version. Versions of one project are numbered under a row lock on the
 * project, so two approvals at once get 4 and 5, never two 4s. Ledgered as `policy.apply` by whoever approved it.
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
  await tx.execute(sql`select id from projects where id = ${projectId} for update`);
  const [next] = await queryRows<{ v: number }>(
    tx,
    sql`select coalesce(max(version), 0)::int + 1 as v from ${policyVersions} where project_id = ${projectId}`,
  );
  const version = Number(next.v);
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
  await policyCache.invalidate(tx);
  await appendEntry(tx, {
    actor: opts.actor,
    op: "policy.apply",
    subject: `policy:v${version}`,
    input: { rules: opts.policy.rules, note: opts.note ?? null, approved_by: opts.approvedBy, via: opts.approvedVia, request_id: opts.requestId ?? null },
    output: { version },
  });
  return { version };
}
