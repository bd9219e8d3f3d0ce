"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { cn, plural } from "@/lib/utils";

/**
 * Listens to the project's mail stream (SSE, dashboard cookie) and re-renders the page when this mailbox (any, without
 * `mailboxId`) has new mail, at most every half second. On a later page it counts instead, so rows do not shift under the reader.
 */
export function MailLive({ mailboxId, refresh }: { mailboxId?: string; refresh: boolean }) {
  const router = useRouter();
  const [connected, setConnected] = React.useState(false);
  const [missed, setMissed] = React.useState(0);

  React.useEffect(() => {
    const stream = new EventSource("/api/v1/mail/stream");
    let timer: ReturnType<typeof setTimeout> | null = null;
    stream.onopen = () => setConnected(true);
    stream.onerror = () => setConnected(false);
    stream.addEventListener("mail", (e) => {
      const change = JSON.parse((e as MessageEvent<string>).data) as { mailbox: string | null };
      if (mailboxId !== undefined && change.mailbox !== mailboxId) return;
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
