import { Badge } from "@/components/ui/badge";
import { effectLabels } from "@/components/policy/effect-label";

const variants = {
  allow: "success",
  auto_approve: "success",
  auto_approve_notify: "success",
  require_approval: "warning",
  deny: "destructive",
} as const;

export function EffectBadge({ effect }: { effect: keyof typeof variants }) {
  return (
    <Badge variant={variants[effect]} title={effect}>
      {effectLabels[effect]}
    </Badge>
  );
}
