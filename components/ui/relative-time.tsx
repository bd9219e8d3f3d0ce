"use client";

import * as React from "react";
import { cn } from "@/lib/utils";
import { formatRelative } from "@/components/ui/format-relative";

type RelativeTimeProps = {
  date: Date | string | number;
  className?: string;
};

/** Shows a relative time that refreshes itself; the exact ISO time is in the title (hover) and dateTime. */
function RelativeTime({ date, className }: RelativeTimeProps) {
  const value = date instanceof Date ? date : new Date(date);
  const [now, setNow] = React.useState(() => Date.now());

  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  if (Number.isNaN(value.getTime())) return <span className={className}>—</span>;
  const iso = value.toISOString();
  return (
    // Server and browser clocks (and time zones) differ, so the text may legitimately change on hydration.
    <time dateTime={iso} title={iso} className={cn("whitespace-nowrap", className)} suppressHydrationWarning>
      {formatRelative(value, now)}
    </time>
  );
}

export { RelativeTime, type RelativeTimeProps };
