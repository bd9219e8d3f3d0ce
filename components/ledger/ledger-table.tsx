import Link from "next/link";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { shortDigest, shortSubject } from "@/components/ledger/format";
import { subjectHref } from "@/components/ledger/subject-href";
import type { LedgerEntry } from "@/lib/db/schema/ledger";

type LedgerTableProps = {
  entries: LedgerEntry[];
  /** key id → key name, to show names instead of ids. */
  keyNames?: Map<string, string>;
  /** The overview shows fewer columns. */
  compact?: boolean;
};

const dash = <span className="text-muted-foreground/60">—</span>;

export function LedgerTable({ entries, keyNames, compact }: LedgerTableProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="w-16 text-right">Seq</TableHead>
          <TableHead>Time</TableHead>
          <TableHead>Op</TableHead>
          <TableHead>Agent</TableHead>
          {!compact && <TableHead>Platform</TableHead>}
          {!compact && <TableHead>Key</TableHead>}
          <TableHead>Via</TableHead>
          {!compact && <TableHead>Subject</TableHead>}
          {!compact && <TableHead>Input / output</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((e) => (
          <TableRow key={e.seq}>
            <TableCell className="text-right font-mono text-xs tabular-nums">
              <Link href={`/ledger/${e.seq}`} className="hover:underline" aria-label={`Entry ${e.seq}`}>
                {e.seq}
              </Link>
            </TableCell>
            <TableCell className="text-muted-foreground">
              <RelativeTime date={e.ts} />
            </TableCell>
            <TableCell className="font-mono text-xs">
              <Link href={`/ledger/${e.seq}`} className="hover:underline">
                {e.op}
              </Link>
            </TableCell>
            <TableCell className="max-w-48 truncate" title={e.agent ? revealInvisible(e.agent) : undefined}>
              {e.agent ? <UntrustedText text={e.agent} /> : dash}
            </TableCell>
            {!compact && <TableCell className="text-muted-foreground">{e.platform ? <UntrustedText text={e.platform} /> : dash}</TableCell>}
            {!compact && (
              <TableCell className="max-w-40 truncate" title={e.keyId ?? undefined}>
                {e.keyId ? (keyNames?.get(e.keyId) ?? <span className="font-mono text-xs">{e.keyId}</span>) : dash}
              </TableCell>
            )}
            <TableCell>
              <Badge variant="outline" className="font-normal text-muted-foreground">
                {e.via}
              </Badge>
            </TableCell>
            {!compact && (
              <TableCell className="font-mono text-xs" title={e.subject ? revealInvisible(e.subject) : undefined}>
                <SubjectLink op={e.op} subject={e.subject} />
              </TableCell>
            )}
            {!compact && (
              <TableCell className="font-mono text-xs text-muted-foreground">
                {shortDigest(e.inputDigest) ?? "—"} / {shortDigest(e.outputDigest) ?? "—"}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The subject, linked to its object when the dashboard has a screen for it (subject-href.ts). */
function SubjectLink({ op, subject }: { op: string; subject: string | null }) {
  if (!subject) return dash;
  const href = subjectHref(op, subject);
  return href ? (
    <Link href={href} className="underline-offset-2 hover:underline">
      <UntrustedText text={shortSubject(subject) ?? ""} />
    </Link>
  ) : (
    <UntrustedText text={shortSubject(subject) ?? ""} />
  );
}
