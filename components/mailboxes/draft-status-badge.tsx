import { Badge } from "@/components/ui/badge";
import type { DraftSendStatus } from "@/lib/db/schema/mail-send";

const variants: Record<DraftSendStatus, "secondary" | "outline" | "warning" | "destructive"> = {
  scheduled: "secondary",
  sending: "warning",
  failed: "destructive",
  pending_approval: "warning",
  rejected: "destructive",
};
const labels: Record<DraftSendStatus, string> = {
  scheduled: "scheduled",
  sending: "sending",
  failed: "failed",
  pending_approval: "awaiting approval",
  rejected: "rejected",
};

export function DraftStatusBadge({ status }: { status: DraftSendStatus | null }) {
  return status ? <Badge variant={variants[status]}>{labels[status]}</Badge> : <Badge variant="outline">draft</Badge>;
}
