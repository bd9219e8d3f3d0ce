"use client";

import * as React from "react";
import { cn } from "@/lib/utils";
import { formatRelative } from "@/components/ui/format-relative";

type RelativeTimeProps = {
  date: Date | string | number;
  className?: string;
};

/**
 * Shows a relative time that refreshes itself ("3 min ago", "in 2 h"); the exact time, in the reader's time zone,
 * is on hover (title), and the ISO instant in dateTime. Used for every date a screen shows.
 */
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
    <time
      dateTime={iso}
      title={exactTime(value)}
      className={cn("whitespace-nowrap", className)}
      suppressHydrationWarning
    >
      {formatRelative(value, now)}
    </time>
  );
}

/** "2 Dec 2026, 07:17:03 UTC": the exact time for the hover, in the browser's locale and time zone. */
function exactTime(date: Date): string {
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" });
}

export { RelativeTime, type RelativeTimeProps };
