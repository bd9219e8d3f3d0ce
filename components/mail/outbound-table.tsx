import type * as React from "react";
import { MessageStatusBadge } from "@/components/mail/message-status-badge";
import type { DeliveryView } from "@/components/mail/outbound-deliveries";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { MessageStatus } from "@/lib/db/schema/mail";

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
  /** For a `send_unknown` message: Mark sent / Resend / Mark failed. */
  resolve?: React.ReactNode;
};

/**
 * One row per message, with the relay's answer or the last error on hover, and under it one line per delivery
 * (route, recipients, status, answer, refused recipients). A message whose fate is unknown offers its resolution.
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
                {m.deliveries && m.deliveries.length > 0 && <Deliveries list={m.deliveries} />}
                {m.resolve}
              </TableCell>
              <TableCell className="max-w-[18rem] truncate" title={m.subject}>
                {m.subject || <span className="text-muted-foreground">(no subject)</span>}
              </TableCell>
              <TableCell>
                <MessageStatusBadge status={m.status} />
              </TableCell>
              <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>
              <TableCell className="max-w-[22rem] truncate text-xs text-muted-foreground" title={m.lastError ?? m.response ?? undefined}>
                {m.lastError ? <span className="text-destructive">{m.lastError}</span> : (m.response ?? "—")}
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

function Deliveries({ list }: { list: DeliveryView[] }) {
  return (
    <ul aria-label="Deliveries" className="mt-1 grid gap-1 font-sans">
      {list.map((d) => (
        <li key={d.id} data-delivery-id={d.id} className="grid gap-0.5 rounded-md bg-muted/40 px-2 py-1 text-xs">
          <span className="flex flex-wrap items-center gap-1.5">
            <span className="font-medium">{d.route === "local" ? "Local" : "Relay"}</span>
            <MessageStatusBadge status={d.status as MessageStatus} />
            <span className="font-mono text-muted-foreground">{d.recipients.join(", ")}</span>
            {d.attempts > 1 && <span className="text-muted-foreground">{d.attempts} attempts</span>}
          </span>
          {(d.lastError ?? d.response) && (
            <span className={d.lastError ? "text-destructive" : "text-muted-foreground"} title={d.lastError ?? d.response ?? undefined}>
              {d.lastError ?? d.response}
            </span>
          )}
          {d.rejected.length > 0 && (
            <span className="text-destructive">
              Refused:{" "}
              {d.rejected.map((r) => (
                <span key={r.recipient} className="mr-2">
                  <span className="font-mono">{r.recipient}</span> ({r.response})
                </span>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
