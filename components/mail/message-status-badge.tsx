import { Badge } from "@/components/ui/badge";
import type { MessageStatus } from "@/lib/db/schema/mail";

const variants: Record<MessageStatus, "secondary" | "outline" | "success" | "warning" | "destructive"> = {
  received: "outline",
  pending: "outline",
  cancelled: "secondary",
  queued: "secondary",
  sending: "warning",
  sent: "success",
  failed: "destructive",
  bounced: "destructive",
  unknown: "warning",
};

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  return <Badge variant={variants[status]}>{status}</Badge>;
}
