"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { AppError } from "@/lib/errors";
import { setPolicyAsOwner } from "@/lib/policy/set-policy-as-owner";
import { gatedTools } from "@/lib/policy/policy-schema";
import { simulatePolicy } from "@/lib/policy/simulate-policy";
import { riskLevels } from "@/lib/db/schema/approvals";

/** The editor: JSON text in, a new version out, at once (the owner approves their own edit; ledgered). */
export const savePolicyAction = ownerAction(
  z.object({ json: z.string().max(200_000), note: z.string().max(500).optional() }),
  async (ctx, input) => {
    let value: unknown;
    try {
      value = JSON.parse(input.json);
    } catch (err) {
      throw new AppError("validation_error", `The policy is not valid JSON: ${(err as Error).message}`);
    }
    const applied = await setPolicyAsOwner(ctx.db, { actor: ctx.actor, policy: value, note: input.note?.trim() || null });
    ctx.subject = `policy:v${applied.version}`;
    return applied;
  },
  { op: "policy.apply" },
);

/** The simulator: reads only, nothing is written or ledgered. */
export const simulatePolicyAction = ownerAction(
  z.object({
    action: z.string().trim().max(100).optional(),
    tool: z.enum(gatedTools).optional(),
    risk: z.enum(riskLevels).optional(),
    amount: z.number().finite().optional(),
    recipients: z.array(z.email()).max(50).optional(),
  }),
  async (ctx, input) => simulatePolicy(ctx.db, ctx.actor.projectId, input),
);
