import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { ListTable } from "@/components/ui/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { UntrustedText } from "@/components/ui/untrusted-text";

export type RejectionRowView = {
  id: string;
  at: string;
  remoteIp: string | null;
  helo: string | null;
  mailFrom: string | null;
  rcpt: string;
  smtpCode: string;
  reason: string;
};

/** SMTP refusals, one per row: who tried, for whom, and the answer the sending server got. */
export function RejectionsTable({ rows }: { rows: RejectionRowView[] }) {
  return (
    <ListTable columns={["Time", "Remote IP", "MAIL FROM", "RCPT", "Code", "Reason"]}>
      {rows.map((r) => (
        <TableRow key={r.id} data-rejection-id={r.id}>
          <TableCell className="pl-4 text-muted-foreground">
            <RelativeTime date={r.at} />
          </TableCell>
          <TableCell className="font-mono text-xs" title={r.helo ? `HELO ${r.helo}` : undefined}>
            {r.remoteIp ?? "—"}
          </TableCell>
          <TableCell className="max-w-64 truncate font-mono text-xs" title={r.mailFrom ?? undefined}>
            {r.mailFrom ? <UntrustedText text={r.mailFrom} /> : <span className="text-muted-foreground">&lt;&gt; (bounce)</span>}
          </TableCell>
          <TableCell className="max-w-64 truncate font-mono text-xs" title={r.rcpt}>
            <UntrustedText text={r.rcpt} />
          </TableCell>
          <TableCell>
            <Badge variant={r.smtpCode.startsWith("4") ? "warning" : "destructive"}>{r.smtpCode}</Badge>
          </TableCell>
          <TableCell className="max-w-96 pr-4 text-sm whitespace-normal">
            <UntrustedText text={r.reason} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
