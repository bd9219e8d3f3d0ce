import Link from "next/link";
import { Card } from "@/components/ui/card";

/** One number with its label; the whole card links to the screen that explains it. */
export function StatCard({ label, value, hint, href }: { label: string; value: number; hint?: string; href?: string }) {
  const body = (
    <Card className="gap-1 px-5 py-4 transition-colors hover:bg-muted/40">
      <div className="text-xs text-muted-foreground">{label}</div>
      <div className="text-2xl font-semibold tabular-nums">{value.toLocaleString("en-US")}</div>
      {hint && <div className="text-xs text-muted-foreground">{hint}</div>}
    </Card>
  );
  return href ? (
    <Link href={href} className="rounded-xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
      {body}
    </Link>
  ) : (
    body
  );
}
