import { Badge } from "@/components/ui/badge";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { revealInvisible } from "@/lib/text/reveal-invisible";

const riskVariant = { low: "secondary", medium: "warning", high: "destructive" } as const;

export function RiskBadge({ risk }: { risk: "low" | "medium" | "high" | null }) {
  if (!risk) return null;
  return <Badge variant={riskVariant[risk]}>risk {risk}</Badge>;
}

const statusVariant: Record<string, "success" | "destructive" | "warning" | "secondary" | "outline"> = {
  approved: "success",
  modified: "success",
  answered: "success",
  denied: "destructive",
  needs_context: "warning",
  expired: "secondary",
  pending: "outline",
};

export function RequestStatusBadge({ status }: { status: string }) {
  return <Badge variant={statusVariant[status] ?? "outline"}>{status.replace("_", " ")}</Badge>;
}

const kindLabel = { approval: "approval", question: "question", policy: "policy change", tool: "tool call" } as const;

export function KindBadge({ kind, action }: { kind: keyof typeof kindLabel; action: string | null }) {
  const text = kind === "approval" || kind === "tool" ? (action ?? kindLabel[kind]) : kindLabel[kind];
  return (
    // The action is the agent's (up to 100 characters): cut to the space there is, whole on hover, and untrusted text
    // (an override in it reordered the words beside it on the card).
    <Badge variant="outline" className="max-w-full font-mono" title={revealInvisible(text)}>
      <UntrustedText text={text} className="truncate" />
    </Badge>
  );
}
