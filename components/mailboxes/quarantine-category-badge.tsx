import { Badge } from "@/components/ui/badge";
import type { QuarantineCategory } from "@/lib/mail/quarantine/quarantine-categories";

const look = {
  blocked: { label: "Blocked", variant: "secondary" },
  unauthenticated: { label: "Unauthenticated", variant: "warning" },
  spam: { label: "Spam", variant: "destructive" },
} as const;

/** The category as a badge, with why the message is here right beside it. */
export function QuarantineCategoryBadge({ category, reason }: { category: QuarantineCategory; reason: string }) {
  return (
    <div className="grid gap-1">
      <Badge variant={look[category].variant}>{look[category].label}</Badge>
      <span className="max-w-72 text-xs whitespace-normal text-muted-foreground [overflow-wrap:anywhere]">{reason}</span>
    </div>
  );
}
