import { eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { type PolicyDraft, policyDrafts } from "@/lib/db/schema/policy-drafts";
import { checkRuleApprovers } from "@/lib/approvals/propose-policy";
import { getPolicy } from "@/lib/policy/get-policy";
import { parsePolicy } from "@/lib/policy/parse-policy";
import type { Policy, Rule } from "@/lib/policy/policy-schema";

/** How an owner is named on versions and drafts (`owner:<email>`), as the dashboard's own edits always were. */
export const ownerWho = (actor: Actor) => `owner:${actor.agent ?? "owner"}`;

export const draftPolicy = (row: PolicyDraft): Policy => ({ rules: row.rules as Rule[] });

/** The project's draft, or null. `forUpdate` holds it until the transaction ends (apply reads then deletes it). */
export async function getPolicyDraft(db: Executor, projectId: string, opts: { forUpdate?: boolean } = {}): Promise<PolicyDraft | null> {
  const q = db.select().from(policyDrafts).where(eq(policyDrafts.projectId, projectId));
  const [row] = opts.forUpdate ? await q.for("update") : await q;
  return row ?? null;
}

/**
 * Saves the owner's draft, replacing the one before. It must parse as a policy would (every problem names its rule
 * and field) and name only this project's channels, so that applying it later cannot fail on its own rules.
 */
export async function savePolicyDraft(tx: Executor, opts: { actor: Actor; policy: unknown; note?: string | null }): Promise<PolicyDraft> {
  const policy = parsePolicy(opts.policy);
  const projectId = opts.actor.projectId;
  await checkRuleApprovers(tx, projectId, policy);
  const { version } = await getPolicy(tx, projectId);
  const values = { rules: policy.rules, note: opts.note ?? null, baseVersion: version, updatedBy: ownerWho(opts.actor), updatedAt: new Date() };
  const [row] = await tx
    .insert(policyDrafts)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: policyDrafts.projectId, set: values })
    .returning();
  return row;
}

/** Throws the draft away; true when there was one. */
export async function discardPolicyDraft(tx: Executor, opts: { actor: Actor }): Promise<boolean> {
  const gone = await tx.delete(policyDrafts).where(eq(policyDrafts.projectId, opts.actor.projectId)).returning({ projectId: policyDrafts.projectId });
  return gone.length > 0;
}
