import Link from "next/link";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { RequestData } from "@/components/approvals/request-data";
import { KindBadge, RequestStatusBadge } from "@/components/approvals/request-badges";
import { principalName } from "@/lib/text/principal-name";

/** Past and present requests, newest first; each row opens the request's page. */
export function HistoryTable({ rows }: { rows: RequestData[] }) {
  return (
    <div className="rounded-lg border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="pl-4">Asked</TableHead>
            <TableHead>Request</TableHead>
            <TableHead>Agent</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="pr-4">Decided by</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id} data-request-id={r.id}>
              <TableCell className="pl-4 text-muted-foreground">
                <RelativeTime date={r.createdAt} />
              </TableCell>
              <TableCell className="max-w-md whitespace-normal">
                <div className="flex flex-wrap items-center gap-2">
                  <KindBadge kind={r.kind} action={r.action} />
                  <Link href={`/approvals/${r.id}`} className="font-medium wrap-anywhere hover:underline">
                    <UntrustedText text={r.summary} />
                  </Link>
                </div>
                {r.decision && (
                  <p className="mt-1 text-xs text-muted-foreground">
                    → <UntrustedText text={r.decision} />
                  </p>
                )}
              </TableCell>
              <TableCell className="text-muted-foreground">{r.agent ? <UntrustedText text={r.agent} /> : "—"}</TableCell>
              <TableCell>
                <RequestStatusBadge status={r.status} />
              </TableCell>
              <TableCell className="pr-4 text-muted-foreground">
                {principalName(r.decidedBy)}
                {r.decidedAt && (
                  <span className="block text-xs">
                    <RelativeTime date={r.decidedAt} />
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
