import type { RequestRow } from "@/lib/approvals/list-requests";

/** What the browser gets about a request: plain JSON, dates as ISO text. */
export interface RequestData {
  id: string;
  kind: "approval" | "question" | "policy" | "tool";
  action: string | null;
  summary: string;
  details: string | null;
  risk: "low" | "medium" | "high" | null;
  amount: number | null;
  options: string[];
  status: string;
  decision: string | null;
  comment: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  agent: string | null;
  platform: string | null;
  keyName: string | null;
  rule: string | null;
  createdAt: string;
  expiresAt: string;
}

export const toRequestData = (r: RequestRow): RequestData => ({
  id: r.id,
  kind: r.kind,
  action: r.action,
  summary: r.summary,
  details: r.details,
  risk: r.risk,
  amount: r.amount,
  options: r.options,
  status: r.status,
  decision: r.decision,
  comment: r.comment,
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt?.toISOString() ?? null,
  agent: r.agent,
  platform: r.platform,
  keyName: r.keyName,
  rule: r.rule,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
});
