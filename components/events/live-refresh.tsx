"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { cn, plural } from "@/lib/utils";

type Props = {
  /** Refresh the page when events change; off on later pages, where rows would shift under the reader. */
  refresh: boolean;
  /** Only changes matching these filters count. */
  source?: string;
  type?: string;
};

const matches = (filter: string | undefined, value: string) => !filter || (filter.endsWith("*") ? value.startsWith(filter.slice(0, -1)) : value === filter);

/**
 * Listens to the project's event stream (SSE, dashboard cookie) and re-renders the server page when an event that
 * matches the filters arrives or changes, at most once a second. Shows whether the stream is connected.
 */
export function LiveRefresh({ refresh, source, type }: Props) {
  const router = useRouter();
  const [connected, setConnected] = React.useState(false);
  const [missed, setMissed] = React.useState(0);

  React.useEffect(() => {
    const stream = new EventSource("/api/v1/stream?mail_events=false");
    let timer: ReturnType<typeof setTimeout> | null = null;
    stream.onopen = () => setConnected(true);
    stream.onerror = () => setConnected(false);
    stream.addEventListener("event_change", (e) => {
      const change = JSON.parse((e as MessageEvent<string>).data) as { source: string; event_type: string };
      if (!matches(source, change.source) || !matches(type, change.event_type)) return;
      if (!refresh) return void setMissed((n) => n + 1);
      timer ??= setTimeout(() => {
        timer = null;
        router.refresh();
      }, 1000);
    });
    return () => {
      stream.close();
      if (timer) clearTimeout(timer);
    };
  }, [refresh, source, type, router]);

  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" aria-live="polite">
      <span className={cn("size-2 rounded-full", connected ? "bg-success" : "bg-muted-foreground/40")} aria-hidden />
      {connected ? (missed > 0 ? `${plural(missed, "new change")} — go to the first page` : "Live") : "Connecting…"}
    </span>
  );
}
