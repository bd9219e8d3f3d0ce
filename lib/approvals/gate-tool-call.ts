import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import type { ApprovalRequest } from "@/lib/db/schema/approvals";
import { AppError } from "@/lib/errors";
import { getPolicy } from "@/lib/policy/get-policy";
import { evaluatePolicy } from "@/lib/policy/evaluate-policy";
import type { GatedTool } from "@/lib/policy/policy-schema";
import { askPerson } from "@/lib/approvals/ask-person";

export type GateResult = { outcome: "allow"; requestId: string | null } | { outcome: "pending" | "cancelled"; requestId: string; comment: string | null };

/** A tool call's request as the tool sees it: approved → go; still pending; anything else → cancelled. */
export function gateOutcome(r: ApprovalRequest): GateResult {
  if (r.status === "approved") return { outcome: "allow", requestId: r.id };
  if (r.status === "pending") return { outcome: "pending", requestId: r.id, comment: null };
  const why = r.status === "expired" ? "Nobody decided before the request expired." : null;
  return { outcome: "cancelled", requestId: r.id, comment: r.comment ?? why };
}

/**
 * The policy gate of email_send and file_url (risk `medium`): `deny` refuses with POLICY_DENIED, `allow` lets the
 * call through, `auto_approve(_notify)` records an approved request (and notifies), `require_approval` asks a person
 * about exactly `payload` and waits up to `waitSeconds`. The tool acts only on what the person saw.
 */
export async function gateToolCall(
  db: Executor,
  opts: {
    actor: Actor;
    tool: GatedTool;
    domains?: string[] | null;
    summary: string;
    details: string;
    payload: unknown;
    waitSeconds: number;
    signal?: AbortSignal;
    expiresInMs?: number;
  },
): Promise<GateResult> {
  const current = await getPolicy(db, opts.actor.projectId);
  const verdict = evaluatePolicy(current.policy, {
    action: opts.tool,
    tool: opts.tool,
    risk: "medium",
    amount: null,
    domains: opts.domains?.map((d) => d.toLowerCase()) ?? null,
  });
  if (verdict.effect === "deny") {
    throw new AppError("POLICY_DENIED", `The project policy refuses this ${opts.tool} call (rule ${verdict.rule?.id ?? "default"}).`, {
      fix: "Do not retry this call; ask the owner to change the policy if it should be allowed.",
      details: { rule: verdict.rule?.id ?? null },
    });
  }
  if (verdict.effect === "allow") return { outcome: "allow", requestId: null };
  const row = await askPerson(db, {
    actor: opts.actor,
    waitSeconds: opts.waitSeconds,
    signal: opts.signal,
    build: async () => ({
      kind: "tool",
      action: opts.tool,
      summary: opts.summary,
      details: opts.details,
      risk: "medium",
      expiresInMs: opts.expiresInMs ?? 24 * 3600_000,
      payload: opts.payload,
      verdict: { ...verdict, version: current.version },
    }),
  });
  return gateOutcome(row);
}
