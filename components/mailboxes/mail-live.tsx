"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { cn, plural } from "@/lib/utils";

/**
 * Follows the project's mail events on the live stream (`/api/v1/stream` as SSE, dashboard cookie), filtered to this
 * mailbox (any, without `mailboxId`), and re-renders the page when one arrives, at most every half second. The
 * frames carry no bodies, and the page reads what changed itself. On a later page it counts instead, so rows do not shift under the reader.
 */
export function MailLive({ mailboxId, refresh }: { mailboxId?: string; refresh: boolean }) {
  const router = useRouter();
  const [connected, setConnected] = React.useState(false);
  const [missed, setMissed] = React.useState(0);

  React.useEffect(() => {
    const query = new URLSearchParams({ event_changes: "false" });
    if (mailboxId) query.set("inbox_ids", mailboxId);
    const stream = new EventSource(`/api/v1/stream?${query}`);
    let timer: ReturnType<typeof setTimeout> | null = null;
    stream.onopen = () => setConnected(true);
    stream.onerror = () => setConnected(false);
    stream.addEventListener("event", () => {
      if (!refresh) return void setMissed((n) => n + 1);
      timer ??= setTimeout(() => {
        timer = null;
        router.refresh();
      }, 500);
    });
    return () => {
      stream.close();
      if (timer) clearTimeout(timer);
    };
  }, [mailboxId, refresh, router]);

  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite">
      <span className={cn("size-2 rounded-full", connected ? "bg-success" : "bg-muted-foreground/40")} aria-hidden />
      {connected ? (missed > 0 ? `${plural(missed, "new change")} — go to the first page` : "Live") : "Connecting…"}
    </span>
  );
}
