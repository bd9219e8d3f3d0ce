import type { Metadata } from "next";
import Link from "next/link";
import { Send } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { Progress } from "@/components/ui/progress";
import { AutoRefresh } from "@/components/mail/auto-refresh";
import { MailTabs } from "@/components/mail/mail-tabs";
import { deliveriesOf } from "@/components/mail/outbound-deliveries";
import { OutboundTable } from "@/components/mail/outbound-table";
import { ResolveUnknownButtons } from "@/components/mail/resolve-unknown-buttons";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { heldRequestsOf } from "@/lib/mail/outbound/held-requests";
import { listOutbound, outboundStatuses } from "@/lib/mail/outbound/list-outbound";
import { outboundCounts } from "@/lib/mail/outbound/outbound-counts";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { quotaUsage } from "@/lib/mail/outbound/reserve-quota";
import { projectAddress } from "@/lib/mail/project-address";
import { cn } from "@/lib/utils";
import { resolveUnknownAction } from "./actions";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Outbound mail" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const shownStatuses = ["queued", "sending", "sent", "failed", "bounced", "unknown"] as const;

export default async function OutboundMailPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const params = pageParams(await searchParams);
  const status = outboundStatuses.find((s) => s === params.status);
  const db = await getDb();
  const [address, quota, counts, relay, page] = await Promise.all([
    projectAddress(db, actor.projectId),
    quotaUsage(db, actor.projectId),
    outboundCounts(db, actor.projectId),
    // A stored relay password that cannot be opened must not take this screen down: it says so instead.
    relayFor(db, actor.projectId).catch((err: unknown) => {
      if (err instanceof AppError) return { problem: err.message };
      throw err;
    }),
    listOutbound(db, { projectId: actor.projectId, status, cursor: params.cursor, limit: 50 }),
  ]);
  const href = (q: { status?: string; cursor?: string }) => {
    const s = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => !!e[1]));
    return s.size ? `/mail/outbound?${s}` : "/mail/outbound";
  };
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const [deliveries, requests] = await Promise.all([
    deliveriesOf(
      db,
      actor.projectId,
      page.items.map((m) => m.id),
    ),
    heldRequestsOf(
      db,
      actor.projectId,
      page.items.filter((m) => m.status === "pending").map((m) => m.batchId),
    ),
  ]);

  return (
    <>
      <PageHeader
        title="Mailboxes"
        description="Every message sent from the project's mailboxes, and what became of it for each recipient."
        actions={<AutoRefresh enabled={!params.cursor} />}
      >
        <MailTabs current="/mail/outbound" />
      </PageHeader>
      <div className="mb-6 grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm">Project address</CardTitle>
            <CardDescription>Agents send from it; replies and mail to it arrive as email.received events.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-1 text-sm">
            <div className="flex items-center gap-1 font-mono text-xs">
              {address}
              <CopyButton value={address} label="Copy the project address" size="icon-xs" />
            </div>
            <div className="text-xs text-muted-foreground">
              Outside recipients:{" "}
              {relay && "problem" in relay ? (
                <>
                  {relay.problem}{" "}
                  <Link href="/mail/settings" className="underline underline-offset-2">
                    Mail settings
                  </Link>
                </>
              ) : relay ? (
                `via ${relay.host}:${relay.port}${relay.origin === "env" ? " (SMTP_RELAY_URL)" : ""}`
              ) : (
                "no relay — "
              )}
              {!relay && (
                <Link href="/mail/settings" className="underline underline-offset-2">
                  set one up
                </Link>
              )}
            </div>
          </CardContent>
        </Card>
        <QuotaCard title="Today (UTC)" used={quota.day.used} limit={quota.day.limit} />
        <QuotaCard title="This month (UTC)" used={quota.month.used} limit={quota.month.limit} />
      </div>
      <nav aria-label="Status" className="mb-4 flex flex-wrap items-center gap-1 border-b">
        {(["all", ...shownStatuses] as const).map((s) => (
          <Link
            key={s}
            href={href({ status: s === "all" ? undefined : s })}
            aria-current={(status ?? "all") === s ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm capitalize",
              (status ?? "all") === s ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {s === "unknown" ? "send unknown" : s}{" "}
            <span className="ml-1 text-xs tabular-nums text-muted-foreground">{s === "all" ? total : (counts[s] ?? 0)}</span>
          </Link>
        ))}
      </nav>
      {page.items.length === 0 ? (
        <EmptyState
          icon={Send}
          title={status ? `No ${status} messages` : "No outbound mail yet"}
          description={
            status
              ? "Pick another status to see the rest."
              : "Give an agent a key with the send scope: its email_send calls appear here with their delivery status."
          }
        />
      ) : (
        <>
          <OutboundTable
            rows={page.items.map((m) => ({
              id: m.id,
              to: m.to.join(", "),
              subject: m.subject ?? "",
              status: m.status,
              attempts: m.attempts,
              lastError: m.lastError,
              response: m.response,
              agent: m.agent,
              createdAt: m.createdAt.toISOString(),
              sentAt: m.sentAt?.toISOString() ?? null,
              deliveries: deliveries.get(m.id) ?? [],
              requestId: m.batchId ? (requests.get(m.batchId) ?? null) : null,
              resolve: m.status === "unknown" ? <ResolveUnknownButtons messageId={m.id} resolveAction={resolveUnknownAction} /> : undefined,
            }))}
          />
          <Pagination
            className="mt-2"
            summary={`${page.items.length} messages, newest first`}
            prevHref={params.cursor ? href({ status }) : null}
            nextHref={page.nextCursor ? href({ status, cursor: page.nextCursor }) : null}
          />
        </>
      )}
    </>
  );
}

function QuotaCard({ title, used, limit }: { title: string; used: number; limit: number }) {
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-sm">{title}</CardTitle>
        <CardDescription>
          <span className="tabular-nums">{used}</span> of <span className="tabular-nums">{limit}</span> messages
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Progress value={pct} aria-label={`${title}: ${used} of ${limit} messages`} className={cn(pct >= 90 && "[&>div]:bg-destructive")} />
      </CardContent>
    </Card>
  );
}
