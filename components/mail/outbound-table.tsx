import { MessageStatusBadge } from "@/components/mail/message-status-badge";
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
};

/** One row per message (one recipient each), with the relay's answer or the last error on hover. */
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
            <TableRow key={m.id} data-message-id={m.id}>
              <TableCell className="pl-4 font-mono text-xs">{m.to}</TableCell>
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
