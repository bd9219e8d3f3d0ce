import type * as React from "react";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import Link from "next/link";
import { MessageStatusBadge } from "@/components/mail/message-status-badge";
import type { DeliveryView } from "@/components/mail/outbound-deliveries";
import { OutboundDeliveryList } from "@/components/mail/outbound-delivery-list";
import { RelativeTime } from "@/components/ui/relative-time";
import type { MessageStatus } from "@/lib/db/schema/mail";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export type OutboundRowView = {
  id: string;
  to: string;
  subject: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  response: string | null;
  agent: string | null;
  createdAt: string;
  sentAt: string | null;
  /** Per-route results (D7); empty for messages sent before deliveries existed. */
  deliveries?: DeliveryView[];
  /** The approval request deciding a held (`pending`) message, linked from its row. */
  requestId?: string | null;
  /** For a `send_unknown` message: Mark sent / Resend / Mark failed. */
  resolve?: React.ReactNode;
};

/**
 * One row per message, with the relay's answer or the last error on hover, and under it one line per delivery
 * (route, recipients, status, answer, refused recipients). A message whose fate is unknown offers its resolution.
 * The subject opens the message's detail; a message waiting for approval links to its request.
 */
export function OutboundTable({ rows }: { rows: OutboundRowView[] }) {
  return (
    <div className="rounded-lg border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="pl-4">To</TableHead>
            <TableHead>Subject</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Attempts</TableHead>
            <TableHead>Last error / answer</TableHead>
            <TableHead>Agent</TableHead>
            <TableHead className="pr-4">Queued</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((m) => (
            <TableRow key={m.id} data-message-id={m.id} className="align-top">
              <TableCell className="pl-4 font-mono text-xs">
                {m.to}
                {m.deliveries && m.deliveries.length > 0 && <OutboundDeliveryList list={m.deliveries} />}
                {m.resolve}
              </TableCell>
              <TableCell className="max-w-[18rem] truncate" title={revealInvisible(m.subject)}>
                <Link href={`/mail/outbound/${m.id}`} className="hover:underline">
                  {m.subject ? <UntrustedText text={m.subject} /> : <span className="text-muted-foreground">(no subject)</span>}
                </Link>
              </TableCell>
              <TableCell>
                <MessageStatusBadge status={m.status} />
                {m.status === "pending" && m.requestId && (
                  <Link href={`/approvals/${m.requestId}`} className="mt-1 block text-xs underline underline-offset-2">
                    Waiting for approval
                  </Link>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>
              <TableCell className="max-w-[22rem] truncate text-xs text-muted-foreground" title={m.lastError ?? m.response ?? undefined}>
                {m.lastError ? <UntrustedText className="text-destructive" text={m.lastError} /> : m.response ? <UntrustedText text={m.response} /> : "—"}
              </TableCell>
              <TableCell className="max-w-[10rem] truncate text-xs text-muted-foreground">{m.agent ?? "—"}</TableCell>
              <TableCell className="pr-4 text-muted-foreground">
                <RelativeTime date={m.createdAt} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
