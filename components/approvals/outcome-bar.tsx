import { cn } from "@/lib/utils";

const order = [
  ["approved", "bg-success"],
  ["modified", "bg-success/60"],
  ["answered", "bg-primary/70"],
  ["denied", "bg-destructive"],
  ["needs_context", "bg-warning"],
  ["expired", "bg-muted-foreground/40"],
  ["pending", "bg-muted-foreground/15"],
] as const;

/** Requests of the last 7 days by outcome: one bar a person reads at a glance, with a legend. */
export function OutcomeBar({ counts }: { counts: Partial<Record<string, number>> }) {
  const total = order.reduce((n, [k]) => n + (counts[k] ?? 0), 0);
  if (total === 0) return null;
  return (
    <figure className="grid gap-2" aria-label="Requests of the last 7 days by outcome">
      <div className="flex h-2.5 overflow-hidden rounded-full bg-muted">
        {order.map(([k, color]) =>
          counts[k] ? <div key={k} className={cn(color)} style={{ width: `${((counts[k] ?? 0) / total) * 100}%` }} title={`${k}: ${counts[k]}`} /> : null,
        )}
      </div>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span>Last 7 days: {total}</span>
        {order.map(([k, color]) =>
          counts[k] ? (
            <span key={k} className="inline-flex items-center gap-1.5">
              <span className={cn("size-2 rounded-full", color)} aria-hidden />
              {k.replace("_", " ")} {counts[k]}
            </span>
          ) : null,
        )}
      </figcaption>
    </figure>
  );
}
