import { getTableColumns } from "drizzle-orm";
import { policyVersions, type PolicyVersion } from "@/lib/db/schema/approvals";
import { columnList, statement } from "@/lib/db/statement";

/* The policy module's hand-written statement (lib/db/statement.ts): every gated call inside a transaction reads it. */

/** The project's newest policy version, if it has any. */
export const latestPolicyVersion = statement<PolicyVersion, [projectId: string]>(`
  select ${columnList(getTableColumns(policyVersions))} from policy_versions where project_id = $1 order by version desc limit 1`);
