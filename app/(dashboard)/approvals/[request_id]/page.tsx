import type { Metadata } from "next";
import { UntrustedList, UntrustedText } from "@/components/ui/untrusted-text";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { JsonTree } from "@/components/ui/json-tree";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { KindBadge, RequestStatusBadge, RiskBadge } from "@/components/approvals/request-badges";
import { PendingList } from "@/components/approvals/pending-list";
import { toRequestData } from "@/components/approvals/request-data";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { getRequestDetail } from "@/lib/approvals/get-request-detail";
import { decideAction } from "../actions";
import { principalName } from "@/lib/text/principal-name";
import { formatAmount } from "@/lib/text/format-amount";

export const metadata: Metadata = { title: "Request" };

export default async function RequestPage({ params }: { params: Promise<{ request_id: string }> }) {
  const { project } = await requireOwner();
  const { request_id } = await params;
  const found = await getRequestDetail(await getDb(), project.id, request_id);
  if (!found) notFound();
  const r = found.request;
  // A channel's label is the agent's text (channel_add): shown as UntrustedText, as every such name.
  const label = (id: string | null) => found.channels.find((c) => c.id === id)?.label ?? id ?? "—";
  const fact = (name: string, value: React.ReactNode) => (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{name}</dt>
      <dd className="text-sm wrap-anywhere">{value}</dd>
    </div>
  );
  const open = r.status === "pending" && r.expiresAt.getTime() > Date.now();
  return (
    <>
      <PageHeader
        title={<UntrustedText text={r.summary} />}
        description={<span className="font-mono text-xs">{r.id}</span>}
        actions={<RequestStatusBadge status={r.status} />}
      >
        <div className="flex flex-wrap items-center gap-2">
          <KindBadge kind={r.kind} action={r.action} />
          <RiskBadge risk={r.risk} />
        </div>
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="grid gap-4 lg:col-span-2">
          {open ? (
            <PendingList requests={[toRequestData(r)]} decide={decideAction} />
          ) : (
            <Card>
              <CardHeader>
                <CardTitle>Outcome</CardTitle>
              </CardHeader>
              <CardContent>
                <dl className="grid gap-3 sm:grid-cols-2">
                  {fact("Status", <RequestStatusBadge status={r.status} />)}
                  {fact("Decided by", principalName(r.decidedBy))}
                  {fact("Through channel", <UntrustedText text={label(r.decidedChannelId)} />)}
                  {fact("Decided", r.decidedAt ? <RelativeTime date={r.decidedAt} /> : "—")}
                  {r.decision && fact("Decision", <UntrustedText text={r.decision} />)}
                  {r.comment && fact("Comment", <UntrustedText text={r.comment} />)}
                </dl>
              </CardContent>
            </Card>
          )}
          {!open && r.details && (
            <Card>
              <CardHeader>
                <CardTitle>Details</CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-sm whitespace-pre-wrap wrap-anywhere">
                  <UntrustedText text={r.details} />
                </p>
              </CardContent>
            </Card>
          )}
          {r.payload !== null && (
            <Card>
              <CardHeader>
                <CardTitle>Exact action</CardTitle>
              </CardHeader>
              <CardContent>
                <JsonTree data={r.payload} aria-label="The exact action shown and approved" />
              </CardContent>
            </Card>
          )}
        </div>
        <Card className="h-fit">
          <CardContent>
            <dl className="grid gap-3">
              {fact(
                "Asked by",
                <>
                  {r.agent ? <UntrustedText text={r.agent} /> : "—"}
                  {r.keyName && (
                    <>
                      {" "}
                      (key <UntrustedText text={r.keyName} />)
                    </>
                  )}
                </>,
              )}
              {fact("Asked", <RelativeTime date={r.createdAt} />)}
              {fact("Expires", <RelativeTime date={r.expiresAt} />)}
              {r.amount !== null && fact("Amount", formatAmount(r.amount))}
              {fact("Policy", r.rule ? `rule ${r.rule} (version ${r.policyVersion})` : `no rule (version ${r.policyVersion})`)}
              {fact("Asked on", <UntrustedList items={r.approvers.map(label)} empty="—" />)}
              {found.deliveries.length > 0 &&
                fact(
                  "Deliveries",
                  <ul className="grid gap-1">
                    {found.deliveries.map((d) => (
                      <li key={d.delivery.id}>
                        <UntrustedText text={d.label} /> ({d.kind}):{" "}
                        {d.delivery.sentAt ? "sent" : d.delivery.lastError ? `failed: ${d.delivery.lastError}` : "sending"}
                        {d.delivery.usedAt ? ", link used" : ""}
                      </li>
                    ))}
                  </ul>,
                )}
              {r.stateRef &&
                fact(
                  "State reference",
                  <code className="text-xs">
                    <UntrustedText text={r.stateRef} />
                  </code>,
                )}
              {fact("Action hash", <code className="text-xs break-all">{r.actionHash}</code>)}
              {fact(
                "Ledger",
                <Link className="underline underline-offset-4" href={`/ledger?subject=${r.id}`}>
                  Entries for this request
                </Link>,
              )}
            </dl>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
