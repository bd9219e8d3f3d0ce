"use client";

import * as React from "react";
import { usePathname, useRouter } from "next/navigation";
import { cn } from "@/lib/utils";

/**
 * Re-renders the page (and with it the nav's pending count) when a request of the project is created or decided,
 * from the approvals stream (SSE, dashboard cookie). `quiet` hides the indicator (the layout's badge listener).
 */
export function ApprovalsLive({ quiet = false, delayMs = 250, skipUnder }: { quiet?: boolean; delayMs?: number; skipUnder?: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const [connected, setConnected] = React.useState(false);
  // The layout's listener steps aside where the Approvals screen runs its own.
  const skip = skipUnder !== undefined && pathname.startsWith(skipUnder);

  React.useEffect(() => {
    if (skip) return;
    const stream = new EventSource("/api/v1/approvals/stream");
    let timer: ReturnType<typeof setTimeout> | null = null;
    stream.onopen = () => setConnected(true);
    stream.onerror = () => setConnected(false);
    stream.addEventListener("request", () => {
      timer ??= setTimeout(() => {
        timer = null;
        router.refresh();
      }, delayMs);
    });
    return () => {
      stream.close();
      if (timer) clearTimeout(timer);
    };
  }, [router, delayMs, skip]);

  if (quiet) return null;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite">
      <span className={cn("size-2 rounded-full", connected ? "bg-success" : "bg-muted-foreground/40")} aria-hidden />
      {connected ? "Live" : "Connecting…"}
    </span>
  );
}
