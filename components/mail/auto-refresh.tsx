"use client";

import * as React from "react";
import { useRouter } from "next/navigation";

/**
 * Re-renders the server page every few seconds while the tab is visible, so delivery statuses move without a
 * reload. Off on later pages, where rows would shift under the reader.
 */
export function AutoRefresh({ enabled, everyMs = 5000 }: { enabled: boolean; everyMs?: number }) {
  const router = useRouter();
  React.useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [enabled, everyMs, router]);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite">
      <span className={enabled ? "size-2 rounded-full bg-success" : "size-2 rounded-full bg-muted-foreground/40"} aria-hidden />
      {enabled ? "Live" : "Paused on this page"}
    </span>
  );
}
