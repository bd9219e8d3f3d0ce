"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

function describe(ms: number): string {
  if (ms <= 0) return "expired";
  const m = Math.ceil(ms / 60_000);
  if (m < 60) return `${m} min left`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ""} left`;
  return `${Math.floor(h / 24)} days left`;
}

/** Time until a request expires, ticking; red in the last ten minutes. */
export function TimeLeft({ expiresAt, className }: { expiresAt: string; className?: string }) {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(t);
  }, []);
  const ms = new Date(expiresAt).getTime() - now;
  return (
    <time
      dateTime={expiresAt}
      // The exact moment as a person reads it, in their zone (the instant itself is in dateTime).
      title={`Expires ${new Date(expiresAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" })}`}
      suppressHydrationWarning
      className={cn("whitespace-nowrap tabular-nums", ms < 600_000 && "text-destructive", className)}
    >
      {describe(ms)}
    </time>
  );
}
