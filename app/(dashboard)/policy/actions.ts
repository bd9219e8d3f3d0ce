"use server";

import { JSON_MAX_DEPTH, jsonTextTooDeep } from "@/lib/json/json-depth";
import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { AppError } from "@/lib/errors";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { applyPolicyDraftRoute, deletePolicyDraftRoute, POLICY_VERSION_MAX, putPolicyDraftRoute, revertPolicyRoute } from "@/lib/owner-api/policy";
import { applyPolicyDraft } from "@/lib/policy/apply-policy-draft";
import { discardPolicyDraft, savePolicyDraft } from "@/lib/policy/policy-draft";
import { revertPolicy } from "@/lib/policy/revert-policy";
import { simulateAgainstDraft } from "@/lib/policy/simulate-draft";
import { simulationInput } from "@/lib/policy/simulation-input";
import { sentence } from "@/lib/forms/plain-issue";

const EMPTY_POLICY = 'Write the policy as JSON, e.g. {"rules": []}.';
const onJson = (message: string) => new AppError("validation_error", message, { details: { field: "json", message } });

/**
 * The draft's problems as sentences for the JSON field: each names its rule ("Rule 2 "big-refunds": effect must be
 * one of …"); the whole document's shape is said once, without the agents' `policy:` path.
 */
function draftProblems(details: unknown): string {
  const problems = Array.isArray(details) ? (details as { field?: string; message?: string }[]) : [];
  const words = problems.map((p) =>
    /^policy(\.rules)?$/.test(p.field ?? "") || !/^rule \d/.test(p.message ?? "")
      ? 'Write the policy as {"rules": [...]}, with no other keys, and at most 100 rules.'
      : sentence((p.message ?? "").replace(/: ([a-z_][\w.]*): /i, ": in $1, ")),
  );
  return [...new Set(words)].join(" ") || "Check the policy.";
}

/** The draft editor: JSON text in, a saved draft out; nothing changes in force (ledgered as its REST twin). */
export const saveDraftAction = ownerAction(
  z.object({ json: z.string().trim().min(1, EMPTY_POLICY).max(200_000), note: z.string().trim().max(500).optional() }),
  async (ctx, input) => {
    let value: unknown;
    if (jsonTextTooDeep(input.json)) throw onJson(`The policy is nested more than ${JSON_MAX_DEPTH} levels deep.`);
    try {
      value = JSON.parse(input.json);
    } catch (err) {
      throw onJson(`The policy is not valid JSON: ${(err as Error).message}`);
    }
    const draft = await savePolicyDraft(ctx.db, { actor: ctx.actor, policy: value, note: input.note || null }).catch((err) => {
      throw err instanceof AppError && err.code === "validation_error" ? onJson(draftProblems(err.details)) : err;
    });
    ctx.subject = "policy:draft";
    return { baseVersion: draft.baseVersion };
  },
  { op: routeOp(putPolicyDraftRoute) },
);

export const discardDraftAction = ownerAction(
  z.object({}),
  async (ctx) => {
    ctx.subject = "policy:draft";
    return { deleted: await discardPolicyDraft(ctx.db, { actor: ctx.actor }) };
  },
  { op: routeOp(deletePolicyDraftRoute) },
);

/**
 * Applies the draft as reviewed: the saved draft the page showed (another tab's save since is CONFLICT), against the
 * version in force it showed, so one applied since is never dropped.
 */
export const applyDraftAction = ownerAction(
  z.object({ versionInForce: z.number().int().min(0).max(POLICY_VERSION_MAX), draftUpdatedAt: z.string().max(40) }),
  async (ctx, input) => {
    const applied = await applyPolicyDraft(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = `policy:v${applied.version}`;
    return applied;
  },
  { op: routeOp(applyPolicyDraftRoute) },
);

/** Reverts as the history page showed it: against the version then in force, so one applied since is never dropped. */
export const revertPolicyAction = ownerAction(
  z.object({ version: z.number().int().min(1).max(POLICY_VERSION_MAX), versionInForce: z.number().int().min(0).max(POLICY_VERSION_MAX) }),
  async (ctx, input) => {
    const applied = await revertPolicy(ctx.db, { actor: ctx.actor, ...input });
    ctx.subject = `policy:v${applied.version}`;
    return applied;
  },
  { op: routeOp(revertPolicyRoute) },
);

/** The simulator: one request against the policy in force and the saved draft; reads only, nothing is ledgered. */
export const simulatePolicyAction = ownerAction(simulationInput, async (ctx, input) => simulateAgainstDraft(ctx.db, ctx.actor.projectId, input));
