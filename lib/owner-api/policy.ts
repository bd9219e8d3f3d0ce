import { z } from "zod";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";
import { draftView, simulationView, toDraftView, toSimulationView, toVersionView, versionView } from "@/lib/owner-api/policy-view";
import { applyPolicyDraft } from "@/lib/policy/apply-policy-draft";
import { getPolicy } from "@/lib/policy/get-policy";
import { discardPolicyDraft, getPolicyDraft, savePolicyDraft } from "@/lib/policy/policy-draft";
import { listPolicyHistory } from "@/lib/policy/policy-history";
import { POLICY_DESCRIPTION } from "@/lib/policy/policy-schema";
import { revertPolicy } from "@/lib/policy/revert-policy";
import { simulateAgainstDraft } from "@/lib/policy/simulate-draft";
import { simulationInput } from "@/lib/policy/simulation-input";

/**
 * The Policy screen over owner REST: a draft that is saved but not in force, the simulator against it and the
 * policy in force side by side, apply, the history with diffs, and revert. Agents propose policies with
 * policy_set instead; these are the owner's own edits, approved by the owner who makes them.
 */

const note = z.string().trim().max(500).optional().describe("Up to 500 characters, kept with the version.");

/**
 * A policy version as policy_versions.version holds it, a Postgres `integer`: a larger one matches no version, and
 * the column's cast failed the query as a 500. Shared with the dashboard's revert.
 */
export const POLICY_VERSION_MAX = 2_147_483_647;

/** The version in force the caller saw: another applied since makes a change CONFLICT (requireVersionInForce). */
const versionInForce = (what: string) =>
  z.number().int().min(0).max(POLICY_VERSION_MAX).optional().describe(`${what} If another has been applied since, nothing changes and the answer is CONFLICT.`);

export const getPolicyDraftRoute = defineOwnerRoute({
  name: "owner_policy_draft_get",
  description: "The owner's draft of the next policy (not in force), or `draft: null`, and the version in force.",
  input: z.object({}).strict(),
  output: z.object({ draft: draftView.nullable(), version_in_force: z.number().int() }),
  rest: { method: "GET", path: "/owner/policy/draft" },
  handler: async (ctx) => {
    const draft = await getPolicyDraft(ctx.db, ctx.actor.projectId);
    const { version } = await getPolicy(ctx.db, ctx.actor.projectId);
    return { draft: draft ? toDraftView(draft) : null, version_in_force: version };
  },
});

export const putPolicyDraftRoute = defineOwnerRoute({
  name: "owner_policy_draft_put",
  description: `Saves the draft of the next policy, replacing the previous draft; nothing changes in force until it is applied. A draft that does not parse is a validation_error naming each rule and field at fault. ${POLICY_DESCRIPTION}`,
  // The policy is checked rule by rule in savePolicyDraft, whose errors name the rule (`rule 2 "big-refunds": effect: …`).
  input: z.object({ policy: z.unknown().describe("The draft policy, `{rules: [...]}`."), note }).strict(),
  output: draftView,
  rest: { method: "PUT", path: "/owner/policy/draft" },
  op: "policy.draft_save",
  handler: async (ctx, input) => {
    const draft = await savePolicyDraft(ctx.db, { actor: ctx.actor, policy: input.policy, note: input.note || null });
    ctx.subject = "policy:draft";
    return toDraftView(draft);
  },
});

export const deletePolicyDraftRoute = defineOwnerRoute({
  name: "owner_policy_draft_delete",
  description: "Discards the draft. `deleted: false` when there was none.",
  input: z.object({}).strict(),
  output: z.object({ deleted: z.boolean() }),
  rest: { method: "DELETE", path: "/owner/policy/draft" },
  op: "policy.draft_discard",
  handler: async (ctx) => {
    ctx.subject = "policy:draft";
    return { deleted: await discardPolicyDraft(ctx.db, { actor: ctx.actor }) };
  },
});

export const simulatePolicyRoute = defineOwnerRoute({
  name: "owner_policy_simulate",
  description:
    "What one request would get under the policy in force and under the draft, side by side: the effect, the rule that decided and who would be asked or told. Give ask_approval's `action`, `risk` and `amount`, or a `tool` call (with `recipients` for email_send). Reads only.",
  input: simulationInput,
  output: simulationView,
  rest: { method: "POST", path: "/owner/policy/simulate" },
  handler: async (ctx, input) => toSimulationView(await simulateAgainstDraft(ctx.db, ctx.actor.projectId, input)),
});

export const applyPolicyDraftRoute = defineOwnerRoute({
  name: "owner_policy_apply",
  description:
    "Puts the draft in force as the next version, approved by this owner, and deletes the draft. `note` replaces the draft's note. With no draft saved, the answer is CONFLICT; so it is when `version_in_force` is given and another version has been applied since, or `draft_updated_at` and the draft was saved again.",
  input: z
    .object({
      note,
      version_in_force: versionInForce("The version in force you reviewed the draft against (0 before the first)."),
      draft_updated_at: z
        .string()
        .max(40)
        .optional()
        .describe(
          "The draft's `updated_at` as you reviewed it (GET /owner/policy/draft). If it was saved again since, nothing changes and the answer is CONFLICT.",
        ),
    })
    .strict(),
  output: z.object({ version: z.number().int(), rules: z.number().int() }),
  rest: { method: "POST", path: "/owner/policy/apply" },
  op: "policy.apply",
  handler: async (ctx, input) => {
    const applied = await applyPolicyDraft(ctx.db, {
      actor: ctx.actor,
      note: input.note || null,
      versionInForce: input.version_in_force,
      draftUpdatedAt: input.draft_updated_at,
    });
    ctx.subject = `policy:v${applied.version}`;
    return applied;
  },
});

export const policyHistoryRoute = defineOwnerRoute({
  name: "owner_policy_history",
  description:
    "Applied policy versions, newest first: who proposed and approved each, when, and its diff against the version before (rules added, removed, changed field by field, and moved). Pass `next_before` back as `before` for older versions.",
  input: z
    .object({
      limit: z.number().int().min(1).max(100).default(20).describe("Versions per page, default 20, max 100."),
      before: z.number().int().min(1).max(POLICY_VERSION_MAX).optional().describe("Only versions older than this one."),
    })
    .strict(),
  output: z.object({ versions: z.array(versionView), next_before: z.number().int().nullable() }),
  rest: { method: "GET", path: "/owner/policy/history" },
  handler: async (ctx, input) => {
    const { entries, nextBefore } = await listPolicyHistory(ctx.db, ctx.actor.projectId, input);
    return { versions: entries.map(toVersionView), next_before: nextBefore };
  },
});

export const revertPolicyRoute = defineOwnerRoute({
  name: "owner_policy_revert",
  description:
    "Puts an earlier version's rules back in force as a new version (history only grows). The draft, if any, is kept. NOT_FOUND for an unknown version, CONFLICT for the version already in force, or when `version_in_force` is no longer in force.",
  input: z
    .object({
      version: z.number().int().min(1).max(POLICY_VERSION_MAX).describe("The version to restore."),
      note,
      version_in_force: versionInForce("The version in force when you chose to revert."),
    })
    .strict(),
  output: z.object({ version: z.number().int(), reverted_to: z.number().int() }),
  rest: { method: "POST", path: "/owner/policy/versions/{version}/revert" },
  op: "policy.revert",
  handler: async (ctx, input) => {
    const applied = await revertPolicy(ctx.db, { actor: ctx.actor, version: input.version, note: input.note || null, versionInForce: input.version_in_force });
    ctx.subject = `policy:v${applied.version}`;
    return applied;
  },
});
