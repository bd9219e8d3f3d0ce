import type { Metadata } from "next";
import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { ApprovalsLive } from "@/components/approvals/approvals-live";
import { HistoryFilters } from "@/components/approvals/history-filters";
import { HistoryTable } from "@/components/approvals/history-table";
import { OutcomeBar } from "@/components/approvals/outcome-bar";
import { PendingList } from "@/components/approvals/pending-list";
import { toRequestData } from "@/components/approvals/request-data";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { countPendingRequests, listPendingRequests, listRequestHistory, outcomeCounts } from "@/lib/approvals/list-requests";
import { cn } from "@/lib/utils";
import { decideAction } from "./actions";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Approvals" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function ApprovalsPage({ searchParams }: { searchParams: Search }) {
  const { project } = await requireOwner();
  const params = pageParams(await searchParams);
  const history = params.view === "history";
  const db = await getDb();
  const after = history ? undefined : params.after;
  const [pending, waiting, counts] = await Promise.all([
    listPendingRequests(db, project.id, { after }),
    countPendingRequests(db, project.id),
    outcomeCounts(db, project.id),
  ]);
  // An overdue request is expired by the sweep within a second; it is not offered for a decision meanwhile.
  const open = pending.rows.filter((r) => r.expiresAt.getTime() > Date.now());

  const tab = (active: boolean) =>
    cn("rounded-md px-3 py-1.5 text-sm", active ? "bg-muted font-medium text-foreground" : "text-muted-foreground hover:text-foreground");
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Requests your agents sent to a person. Decide here, by email or in Telegram: the first answer counts."
        actions={<ApprovalsLive />}
      >
        <nav aria-label="Approvals views" className="flex gap-1">
          <Link href="/approvals" className={tab(!history)} aria-current={!history ? "page" : undefined}>
            Pending <span className="tabular-nums">({waiting})</span>
          </Link>
          <Link href="/approvals?view=history" className={tab(history)} aria-current={history ? "page" : undefined}>
            History
          </Link>
        </nav>
        <OutcomeBar counts={counts} />
      </PageHeader>
      {history ? (
        <History projectId={project.id} params={params} />
      ) : open.length === 0 && !after ? (
        <EmptyState
          icon={ShieldCheck}
          title="Nothing waits for you"
          description="When an agent calls ask_approval or ask_human and the policy does not decide, the request appears here at once."
          action={
            <Link href="/policy" className="text-sm underline underline-offset-4">
              Review the policy
            </Link>
          }
        />
      ) : (
        <>
          <PendingList requests={open.map(toRequestData)} decide={decideAction} />
          {(after || pending.next) && (
            <Pagination
              prevHref={after ? "/approvals" : null}
              nextHref={pending.next ? `/approvals?${new URLSearchParams({ after: pending.next })}` : null}
              summary={after ? "Later requests" : "Waiting longest first"}
            />
          )}
        </>
      )}
    </>
  );
}

async function History({ projectId, params }: { projectId: string; params: Record<string, string | undefined> }) {
  const filters = { status: params.status, kind: params.kind, q: params.q, agent: params.agent, before: params.before };
  const { rows, next } = await listRequestHistory(await getDb(), projectId, filters);
  const query = (extra: Record<string, string>) => {
    const q = new URLSearchParams({ view: "history" });
    for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v && k !== "before") q.set(k, v);
    if (extra.before) q.set("before", extra.before);
    return `/approvals?${q}`;
  };
  return (
    <div className="grid gap-4">
      <HistoryFilters values={filters} />
      {rows.length === 0 ? (
        <EmptyState title="No requests match" description="Change the filters, or wait for agents to ask." />
      ) : (
        <>
          <HistoryTable rows={rows.map(toRequestData)} />
          <Pagination
            prevHref={filters.before ? query({}) : null}
            nextHref={next ? query({ before: next }) : null}
            summary={filters.before ? "Older requests" : "Newest first"}
          />
        </>
      )}
    </div>
  );
}
