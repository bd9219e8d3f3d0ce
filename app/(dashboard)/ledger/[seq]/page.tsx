import type { Metadata } from "next";
import { UntrustedText } from "@/components/ui/untrusted-text";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft, ChevronRight, ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { subjectHref } from "@/components/ledger/subject-href";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listKeys } from "@/lib/keys/list-keys";
import { getLedgerEntry } from "@/lib/ledger/get-entry";
import { ledgerHeadSeq } from "@/lib/ledger/ledger-stats";
import { verifyLedger } from "@/lib/ledger/verify-ledger";

type Params = Promise<{ seq: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Ledger entry ${(await params).seq}` };
}

export default async function LedgerEntryPage({ params }: { params: Params }) {
  const { actor } = await requireOwner();
  // Digits only: Number() read /ledger/0x10 as entry 16 and 1e1 as 10.
  const text = (await params).seq;
  const seq = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) notFound();
  const db = await getDb();
  const entry = await getLedgerEntry(db, { actor, seq });
  if (!entry) notFound();
  // Checks this entry's own hash and its link to the one before: the whole chain is the list's "Verify chain".
  const [check, latest, keys] = await Promise.all([
    verifyLedger(db, { actor, fromSeq: seq, toSeq: seq }),
    ledgerHeadSeq(db, { actor }),
    listKeys(db, { actor, includeRevoked: true }),
  ]);
  const keyName = keys.find((k) => k.id === entry.keyId)?.name;

  return (
    <>
      <PageHeader
        title={<span className="font-mono">{entry.op}</span>}
        description={
          <>
            Entry {seq} · <RelativeTime date={entry.ts} />
          </>
        }
        actions={
          <>
            <StepLink href={seq > 1 ? `/ledger/${seq - 1}` : null}>
              <ChevronLeft />
              Older
            </StepLink>
            <StepLink href={seq < latest ? `/ledger/${seq + 1}` : null}>
              Newer
              <ChevronRight />
            </StepLink>
          </>
        }
      />
      <Card className="py-0">
        <CardContent className="px-0">
          <dl className="divide-y text-sm">
            <Row label="Integrity">
              {check.ok ? (
                <Badge variant="success">
                  <ShieldCheck />
                  Hash matches the content and links to entry {seq - 1 || "genesis"}
                </Badge>
              ) : (
                <Badge variant="destructive">
                  <ShieldAlert />
                  {check.reason}
                </Badge>
              )}
            </Row>
            <Row label="Seq" mono>
              {seq}
            </Row>
            {/* Relative like every date; the exact instant (as hashed) is on hover and one copy away. */}
            <Row label="Time" copy={entry.ts.toISOString()}>
              <RelativeTime date={entry.ts} />
            </Row>
            <Row label="Op" mono>
              <FilterLink name="op" value={entry.op} />
            </Row>
            <Row label="Actor">
              {entry.actorType} <IdNote id={entry.actorId} />
            </Row>
            <Row label="Key">
              {entry.keyId && (
                <>
                  {keyName ?? "—"} <IdNote id={entry.keyId} />
                </>
              )}
            </Row>
            <Row label="Agent">{entry.agent && <FilterLink name="agent" value={entry.agent} />}</Row>
            <Row label="Platform">{entry.platform && <UntrustedText text={entry.platform} />}</Row>
            <Row label="Via">{entry.via}</Row>
            <Row label="Subject" mono copy={entry.subject}>
              {entry.subject && <SubjectLinks op={entry.op} subject={entry.subject} />}
            </Row>
            <Row label="Input digest" mono copy={entry.inputDigest}>
              {entry.inputDigest}
            </Row>
            <Row label="Output digest" mono copy={entry.outputDigest}>
              {entry.outputDigest}
            </Row>
            <Row label="Previous hash" mono copy={entry.prevHash}>
              {entry.prevHash}
            </Row>
            <Row label="Hash" mono copy={entry.hash}>
              {entry.hash}
            </Row>
          </dl>
        </CardContent>
      </Card>
    </>
  );
}

/** A value that opens the ledger filtered by it. */
function FilterLink({ name, value }: { name: string; value: string }) {
  return (
    <Link className="hover:underline" href={`/ledger?${new URLSearchParams({ [name]: value })}`}>
      <UntrustedText text={value} />
    </Link>
  );
}

/** The subject opens its object (when it has a screen) and, beside it, the ledger filtered by it. */
function SubjectLinks({ op, subject }: { op: string; subject: string }) {
  const href = subjectHref(op, subject);
  if (!href) return <FilterLink name="subject" value={subject} />;
  return (
    <>
      <Link className="underline underline-offset-2" href={href}>
        <UntrustedText text={subject} />
      </Link>{" "}
      <Link className="ml-2 font-sans text-muted-foreground hover:underline" href={`/ledger?${new URLSearchParams({ subject })}`}>
        All entries
      </Link>
    </>
  );
}

function IdNote({ id }: { id: string | null }) {
  return id ? <span className="ml-1 font-mono text-xs text-muted-foreground">{id}</span> : null;
}

type RowProps = { label: string; mono?: boolean; copy?: string | null; children: React.ReactNode };

function Row({ label, mono, copy, children }: RowProps) {
  const empty = children === null || children === undefined || children === false || children === "";
  return (
    <div className="grid gap-1 px-5 py-2 sm:min-h-11 sm:grid-cols-[10rem_1fr] sm:items-center">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={`flex min-w-0 items-center gap-1 ${mono ? "font-mono text-xs break-all" : ""}`}>
        {empty ? <span className="text-muted-foreground/60">—</span> : <span className="min-w-0">{children}</span>}
        {copy && <CopyButton value={copy} label={`Copy ${label.toLowerCase()}`} size="icon-xs" className="ml-auto shrink-0" />}
      </dd>
    </div>
  );
}

function StepLink({ href, children }: { href: string | null; children: React.ReactNode }) {
  if (!href) {
    return (
      <Button variant="outline" size="sm" disabled>
        {children}
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" asChild>
      <Link href={href}>{children}</Link>
    </Button>
  );
}
