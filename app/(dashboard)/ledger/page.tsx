import type { Metadata } from "next";
import Link from "next/link";
import { BookText } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { ExportMenu } from "@/components/ledger/export-menu";
import { LedgerFilters } from "@/components/ledger/ledger-filters";
import { FILTER_KEYS, ledgerHref, ledgerSearch } from "@/components/ledger/ledger-search";
import { pageParams } from "@/lib/http/page-params";
import { LedgerTable } from "@/components/ledger/ledger-table";
import { VerifyChain } from "@/components/ledger/verify-chain";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { platforms } from "@/lib/keys/agent-identity";
import { listKeys } from "@/lib/keys/list-keys";
import { previousCursor } from "@/lib/ledger/previous-cursor";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { toolOp } from "@/lib/tools/define-tool";
import { tools } from "@/lib/tools/registry";

export const metadata: Metadata = { title: "Ledger" };

/** Suggestions for the op filter: every tool's op plus the dashboard's own changes. */
const knownOps = [...new Set([...tools.map(toolOp), "key.create", "key.revoke", "project.create", "owner.session.revoke"])].sort();

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function LedgerPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const parsed = ledgerSearch.safeParse(raw);
  const filtered = FILTER_KEYS.some((k) => raw[k]);
  const exportQuery = new URLSearchParams();
  for (const k of FILTER_KEYS) if (raw[k]) exportQuery.set(k, raw[k]);

  const header = (
    <PageHeader
      title="Ledger"
      description="Every tool call and dashboard change, hash-chained. Digests only, never content."
      actions={
        <>
          <VerifyChain />
          <ExportMenu query={exportQuery.toString()} />
        </>
      }
    >
      <LedgerFilters values={raw} ops={knownOps} platforms={platforms} />
    </PageHeader>
  );

  if (!parsed.success) {
    return (
      <>
        {header}
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
        </p>
      </>
    );
  }

  const db = await getDb();
  const { cursor, ...filter } = parsed.data;
  const [page, keys] = await Promise.all([queryLedger(db, { actor, ...filter, cursor }), listKeys(db, { actor, includeRevoked: true })]);
  const first = page.entries.length ? Number(page.entries[0].seq) : cursor ? cursor - 1 : undefined;
  const prev = cursor !== undefined && first !== undefined ? await previousCursor(db, { actor, ...filter, firstSeq: first }) : undefined;
  const last = page.entries[page.entries.length - 1];

  return (
    <>
      {header}
      {page.entries.length === 0 ? (
        <EmptyState
          icon={BookText}
          title={filtered ? "No entries match these filters" : "The ledger is empty"}
          description={filtered ? "Change or reset the filters." : "Calls made with an API key and changes made here appear in the ledger."}
          action={
            filtered ? (
              <Button variant="outline" size="sm" asChild>
                <Link href="/ledger">Reset filters</Link>
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <div className="rounded-lg border">
            <LedgerTable entries={page.entries} keyNames={new Map(keys.map((k) => [k.id, k.name]))} />
          </div>
          <Pagination
            className="mt-2"
            summary={`Seq ${page.entries[0].seq}–${last.seq}, newest first`}
            prevHref={prev === undefined ? null : ledgerHref(raw, { cursor: prev === null ? undefined : String(prev) })}
            nextHref={page.nextCursor ? ledgerHref(raw, { cursor: String(page.nextCursor) }) : null}
          />
        </>
      )}
    </>
  );
}
