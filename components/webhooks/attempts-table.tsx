"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { RotateCw } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import type { ActionResult } from "@/lib/auth/owner-action";
import { UntrustedText } from "@/components/ui/untrusted-text";

export type AttemptRowView = {
  id: string;
  at: string;
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseSnippet: string | null;
  error: string | null;
  deliveryId: string;
  url: string;
  eventId: string;
  eventType: string;
  deliveryStatus: string;
};

type Resend = (input: { deliveryId: string }) => Promise<ActionResult<{ id: string }>>;

/** The delivery log: one row per HTTP attempt; "Resend" queues the attempt's delivery again with the same event id. */
export function AttemptsTable({ rows, resendAction }: { rows: AttemptRowView[]; resendAction: Resend }) {
  const router = useRouter();
  const [pending, setPending] = React.useState<string | null>(null);

  async function resend(r: AttemptRowView) {
    setPending(r.id);
    const res = await resendAction({ deliveryId: r.deliveryId });
    setPending(null);
    if (!res.ok) return void toast.error(res.error);
    toast.success(`Delivery of ${r.eventType} queued again`, { description: `Same webhook-id (${r.eventId}), so the receiver can dedupe it.` });
    router.refresh();
  }

  return (
    <ListTable columns={["Time", "Webhook", "Event", "Status", { label: "Duration", align: "right" }, "Response or error"]} actions>
      {rows.map((r) => (
        <TableRow key={r.id} data-attempt-id={r.id} data-delivery-id={r.deliveryId} className="align-top">
          <TableCell className="pl-4 whitespace-nowrap text-muted-foreground">
            <RelativeTime date={r.at} />
          </TableCell>
          <TableCell className="max-w-56 truncate font-mono text-xs" title={r.url}>
            {r.url}
          </TableCell>
          <TableCell>
            <div className="font-mono text-xs">{r.eventType}</div>
            <div className="font-mono text-[11px] text-muted-foreground">{r.eventId}</div>
          </TableCell>
          <TableCell>
            <Badge variant={r.ok ? "success" : "destructive"}>{r.statusCode ?? "no answer"}</Badge>
          </TableCell>
          <TableCell className="text-right tabular-nums text-muted-foreground">{r.durationMs} ms</TableCell>
          <TableCell className="max-w-96">
            {r.error && (
              <div className="text-xs text-destructive">
                <UntrustedText text={r.error} />
              </div>
            )}
            {r.responseSnippet ? (
              <pre className="line-clamp-2 whitespace-pre-wrap break-all font-mono text-[11px] text-muted-foreground" title={r.responseSnippet}>
                <UntrustedText text={r.responseSnippet} />
              </pre>
            ) : (
              !r.error && <span className="text-xs text-muted-foreground">(empty body)</span>
            )}
          </TableCell>
          <TableCell className="pr-4 text-right">
            <Button
              variant="outline"
              size="xs"
              disabled={pending !== null || r.deliveryStatus === "pending"}
              title={r.deliveryStatus === "pending" ? "This delivery is still queued or retrying" : undefined}
              aria-label={`Resend ${r.eventType} ${r.eventId}`}
              onClick={() => resend(r)}
            >
              <RotateCw aria-hidden />
              Resend
            </Button>
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
