import { Badge } from "@/components/ui/badge";
import type { EventStatus } from "@/lib/db/schema/events";

const variants: Record<EventStatus, "secondary" | "outline" | "success" | "warning" | "destructive"> = {
  pending: "secondary",
  claimed: "outline",
  done: "success",
  failed: "warning",
  dead: "destructive",
};

export function StatusBadge({ status }: { status: EventStatus }) {
  return <Badge variant={variants[status]}>{status}</Badge>;
}
