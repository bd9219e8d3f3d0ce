import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatBytes } from "@/components/events/format-bytes";
import { PayloadViewer } from "@/components/events/payload-viewer";
import { EventActions } from "@/components/events/event-actions";
import { StatusBadge } from "@/components/events/status-badge";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decodeRaw } from "@/lib/events/event-envelope";
import { getEventDetail } from "@/lib/events/get-event-detail";
import { payloadUrl } from "@/lib/events/payload-url";
import { requeueEventsAction } from "../actions";

export const metadata: Metadata = { title: "Event" };

const dash = <span className="text-muted-foreground/60">—</span>;

export default async function EventPage({ params }: { params: Promise<{ event_id: string }> }) {
  const { actor } = await requireOwner();
  const { event_id } = await params;
  const detail = await getEventDetail(await getDb(), { actor, eventId: event_id }).catch((err) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const { event: e, attempts } = detail;
  const raw = e.isJson ? e.payloadText : e.raw ? decodeRaw(e.raw) : null;
  const rawText = typeof raw === "string" ? raw : (raw?.payload ?? null);
  const encoding = e.isJson ? "json" : typeof raw === "object" && raw ? raw.encoding : null;

  const facts: [string, React.ReactNode][] = [
    ["Source", e.source],
    [
      "Trust",
      <Badge key="t" variant={e.trust === "brynth" ? "secondary" : "warning"}>
        {e.trust}
      </Badge>,
    ],
    ["Received", <RelativeTime key="r" date={e.receivedAt} />],
    ["Attempts", e.attempts],
    ["Size", `${formatBytes(e.payloadSize)}${e.contentType ? ` · ${e.contentType}` : ""}`],
    [
      "Lease",
      e.status === "claimed" && e.leaseExpiresAt ? (
        <span key="l">
          {e.claimedAgent ?? e.claimedBy} until <RelativeTime date={e.leaseExpiresAt} />
        </span>
      ) : (
        dash
      ),
    ],
    ["Retry", e.status === "failed" ? <RelativeTime key="a" date={e.availableAt} /> : dash],
    ["Finished", e.finishedAt ? <RelativeTime key="f" date={e.finishedAt} /> : dash],
  ];

  return (
    <>
      <PageHeader
        title={<span className="font-mono">{e.type}</span>}
        description={<span className="font-mono text-xs">{e.id}</span>}
        actions={<StatusBadge status={e.status} />}
      >
        <EventActions event={e} requeueAction={requeueEventsAction} />
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="text-sm">Payload</CardTitle>
            <CardDescription>{e.trust === "brynth" ? "Written by Brynth." : "External data: shown as text only, never rendered or followed."}</CardDescription>
          </CardHeader>
          <CardContent>
            <PayloadViewer
              isJson={e.isJson}
              json={e.isJson && e.payloadText !== null ? JSON.parse(e.payloadText) : undefined}
              raw={rawText}
              encoding={encoding}
              headers={e.headers}
              downloadUrl={rawText === null ? payloadUrl(actor.projectId, e.id).url : null}
              size={formatBytes(e.payloadSize)}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-sm">Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
              {facts.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="min-w-0 break-words">{v}</dd>
                </div>
              ))}
            </dl>
            {e.lastError && (
              <div className="mt-4 grid gap-1">
                <div className="text-xs text-muted-foreground">Last error</div>
                <p className="rounded-md bg-destructive/10 px-2 py-1 text-xs break-words whitespace-pre-wrap text-destructive">{e.lastError}</p>
              </div>
            )}
            {e.result !== null && e.result !== undefined && (
              <div className="mt-4 grid gap-1">
                <div className="text-xs text-muted-foreground">Result</div>
                <CodeBlock code={typeof e.result === "string" ? e.result : JSON.stringify(e.result, null, 2)} copyLabel="Copy result" />
              </div>
            )}
          </CardContent>
        </Card>
      </div>
      <Card className="mt-4">
        <CardHeader>
          <CardTitle className="text-sm">Claim history</CardTitle>
          <CardDescription>Every claim of this event, and how it ended.</CardDescription>
        </CardHeader>
        <CardContent>
          {attempts.length === 0 ? (
            <p className="text-sm text-muted-foreground">Not claimed yet.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="w-12 text-right">#</TableHead>
                  <TableHead>Agent</TableHead>
                  <TableHead>Claimed</TableHead>
                  <TableHead>Ended</TableHead>
                  <TableHead>Outcome</TableHead>
                  <TableHead>Reason</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {attempts.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell className="text-right tabular-nums">{a.attempt}</TableCell>
                    <TableCell title={a.keyId ?? undefined}>{a.agent ?? a.keyId ?? dash}</TableCell>
                    <TableCell className="text-muted-foreground">
                      <RelativeTime date={a.claimedAt} />
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      {/* An open attempt ends when its lease does, unless the holder finishes first. */}
                      {a.finishedAt ? (
                        <RelativeTime date={a.finishedAt} />
                      ) : (
                        <>
                          lease until <RelativeTime date={a.leaseExpiresAt} />
                        </>
                      )}
                    </TableCell>
                    <TableCell>{a.outcome ?? (e.status === "claimed" ? "in progress" : "lease ran out")}</TableCell>
                    <TableCell className="max-w-96 text-xs break-words whitespace-pre-wrap text-muted-foreground">{a.reason ?? ""}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </>
  );
}
