import { z } from "zod";
import type { PolicyVersion } from "@/lib/db/schema/approvals";
import type { PolicyDraft } from "@/lib/db/schema/policy-drafts";
import { effects } from "@/lib/policy/policy-schema";
import type { PolicyHistoryEntry } from "@/lib/policy/policy-history";
import type { simulateAgainstDraft } from "@/lib/policy/simulate-draft";

const rulesView = z.array(z.record(z.string(), z.unknown()));

export const draftView = z.object({
  rules: rulesView,
  note: z.string().nullable(),
  base_version: z.number().int().describe("The version in force when the draft was last saved."),
  updated_by: z.string(),
  updated_at: z.string(),
});
export const toDraftView = (d: PolicyDraft): z.input<typeof draftView> => ({
  rules: d.rules as Record<string, unknown>[],
  note: d.note,
  base_version: d.baseVersion,
  updated_by: d.updatedBy,
  updated_at: d.updatedAt.toISOString(),
});

const verdictView = z.object({
  effect: z.enum(effects),
  rule: z.string().nullable().describe("The rule that decided, or null for the default."),
  decided_by: z.string().nullable(),
  asked: z.array(z.string()).describe("Channels asked (require_approval) or told (auto_approve_notify)."),
});
export const simulationView = z.object({
  in_force: verdictView.extend({ version: z.number().int() }),
  draft: verdictView.extend({ base_version: z.number().int() }).nullable(),
});
type Sim = Awaited<ReturnType<typeof simulateAgainstDraft>>;
const verdict = (v: Sim["inForce"] | NonNullable<Sim["draft"]>) => ({ effect: v.effect, rule: v.rule, decided_by: v.decidedBy, asked: v.asked });
export const toSimulationView = (s: Sim): z.input<typeof simulationView> => ({
  in_force: { version: s.inForce.version, ...verdict(s.inForce) },
  draft: s.draft ? { base_version: s.draft.baseVersion, ...verdict(s.draft) } : null,
});

const change = z.object({ field: z.string(), before: z.unknown().optional(), after: z.unknown().optional() });
export const diffView = z.object({
  added: z.array(z.object({ position: z.number().int(), rule: z.record(z.string(), z.unknown()) })),
  removed: z.array(z.object({ position: z.number().int(), rule: z.record(z.string(), z.unknown()) })),
  changed: z.array(z.object({ id: z.string(), position: z.number().int(), changes: z.array(change) })),
  moved: z.array(z.object({ id: z.string(), from: z.number().int(), to: z.number().int() })),
});
export const versionView = z.object({
  version: z.number().int(),
  rules: rulesView,
  note: z.string().nullable(),
  proposed_by: z.string().nullable(),
  approved_by: z.string(),
  approved_via: z.string().describe("`dashboard`, `rest`, or the channel (`chn_…`) a proposal was approved on."),
  request_id: z.string().nullable(),
  created_at: z.string(),
  diff: diffView.describe("Against the version before (version 1 against no rules): rules matched by id."),
});
export const toVersionView = ({ row, diff }: { row: PolicyVersion; diff: PolicyHistoryEntry["diff"] }): z.input<typeof versionView> => ({
  version: row.version,
  rules: row.rules as Record<string, unknown>[],
  note: row.note,
  proposed_by: row.proposedBy,
  approved_by: row.approvedBy,
  approved_via: row.approvedVia,
  request_id: row.requestId,
  created_at: row.createdAt.toISOString(),
  diff,
});
