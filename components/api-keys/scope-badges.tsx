import { Badge } from "@/components/ui/badge";

/** A few scopes as badges, the rest as "+N" with the full list on hover. */
export function ScopeBadges({ scopes, max = 4 }: { scopes: string[]; max?: number }) {
  const shown = scopes.slice(0, max);
  const rest = scopes.length - shown.length;
  return (
    <div className="flex flex-wrap gap-1">
      {shown.map((s) => (
        <Badge key={s} variant="secondary" className="font-mono font-normal">
          {s}
        </Badge>
      ))}
      {rest > 0 && (
        <Badge variant="outline" className="font-normal text-muted-foreground" title={scopes.join(", ")}>
          +{rest}
        </Badge>
      )}
    </div>
  );
}
