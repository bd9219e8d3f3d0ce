import type { Metadata } from "next";
import Link from "next/link";
import { BookText, KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ConnectInstructions } from "@/components/api-keys/connect-instructions";
import { LedgerTable } from "@/components/ledger/ledger-table";
import { AgentChart } from "@/components/overview/agent-chart";
import { NeedsAttention } from "@/components/overview/needs-attention";
import { StatCard } from "@/components/overview/stat-card";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { countActiveKeys } from "@/lib/keys/list-keys";
import { countLedgerEntries, ledgerEntriesByKey, ledgerHeadSeq } from "@/lib/ledger/ledger-stats";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { needsAttention } from "@/lib/overview/needs-attention";
import { publicUrl } from "@/lib/settings/remote-access";

export const metadata: Metadata = { title: "Overview" };

const DAY = 24 * 3600_000;

export default async function OverviewPage() {
  const { actor, project } = await requireOwner();
  const db = await getDb();
  const now = Date.now();
  const [attention, keys, today, total, perKey, recent] = await Promise.all([
    needsAttention(db, { actor, now: new Date(now) }),
    countActiveKeys(db, { actor }),
    countLedgerEntries(db, { actor, since: new Date(now - DAY) }),
    ledgerHeadSeq(db, { actor }),
    ledgerEntriesByKey(db, { actor, since: new Date(now - 7 * DAY) }),
    queryLedger(db, { actor, limit: 8 }),
  ]);

  return (
    <>
      <PageHeader title="Overview" description={`What is happening in ${project.name}.`} />
      <div className="grid grid-cols-1 gap-4">
        <NeedsAttention counts={attention} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <StatCard label="Active API keys" value={keys} href="/api-keys" />
          <StatCard label="Ledger entries, last 24 h" value={today} href="/ledger" />
          <StatCard label="Ledger entries, all time" value={total} href="/ledger" />
        </div>

        <div className="grid grid-cols-1 gap-4 lg:grid-cols-5">
          <Card className="lg:col-span-3">
            <CardHeader>
              <CardTitle className="text-sm">Recent activity</CardTitle>
              <CardDescription>The latest ledger entries: tool calls and dashboard changes.</CardDescription>
              <CardAction>
                <Button variant="outline" size="sm" asChild>
                  <Link href="/ledger">Open ledger</Link>
                </Button>
              </CardAction>
            </CardHeader>
            <CardContent>
              {recent.entries.length ? (
                <LedgerTable entries={recent.entries} compact />
              ) : (
                <EmptyState icon={BookText} title="No activity yet" description="Calls made with an API key appear here." />
              )}
            </CardContent>
          </Card>

          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle className="text-sm">Entries per key</CardTitle>
              <CardDescription>Last 7 days, busiest first; a key's agent labels are in its tooltip.</CardDescription>
            </CardHeader>
            <CardContent>
              {perKey.length ? <AgentChart data={perKey} /> : <p className="py-8 text-center text-sm text-muted-foreground">No entries in the last 7 days.</p>}
            </CardContent>
          </Card>
        </div>

        <Card>
          <CardHeader>
            <CardTitle className="text-sm">Connect an agent</CardTitle>
            <CardDescription>
              Create an API key with the scopes the agent needs, then add Brynth to the agent as an MCP server. Replace{" "}
              <code className="font-mono text-xs">&lt;your key&gt;</code> with the key, which is shown once when you create it.
            </CardDescription>
            <CardAction>
              <Button size="sm" asChild>
                <Link href="/api-keys?create=1">
                  <KeyRound />
                  Create API key
                </Link>
              </Button>
            </CardAction>
          </CardHeader>
          <CardContent>
            <ConnectInstructions publicUrl={publicUrl()} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
