import Link from "next/link";
import { Card } from "@/components/ui/card";
import { cn } from "@/lib/utils";

type Props = { label: string; value: number; hint?: string; href?: string /** Something waits: the number is coloured. */; attention?: boolean };

/**
 * One number with its label; the whole card links to the screen that explains it. The link holds only the label
 * (stretched over the card), so its name "label: number" contains all of its visible text, as WCAG 2.5.3 asks; the
 * hint stays outside it.
 */
export function StatCard({ label, value, hint, href, attention }: Props) {
  return (
    <Card className={cn("relative h-full gap-1 px-5 py-4 transition-colors", href && "hover:bg-muted/40 focus-within:ring-[3px] focus-within:ring-ring/50")}>
      <div className="text-xs text-muted-foreground">
        {href ? (
          <Link href={href} aria-label={`${label}: ${value.toLocaleString("en-US")}`} className="outline-none after:absolute after:inset-0 after:rounded-xl">
            {label}
          </Link>
        ) : (
          label
        )}
      </div>
      <div className={cn("text-2xl font-semibold tabular-nums", attention && "text-amber-700 dark:text-amber-400")}>{value.toLocaleString("en-US")}</div>
      {hint && <div className="text-xs text-muted-foreground">{hint}</div>}
    </Card>
  );
}
