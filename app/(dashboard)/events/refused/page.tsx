import type { Metadata } from "next";
import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { refusalReasons } from "@/lib/db/schema/events";
import { listRefusals } from "@/lib/sources/intake-refusals";
import { cn, plural } from "@/lib/utils";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Refused webhook deliveries" };

const DAY = 24 * 3600_000;
const reasonLabel = { bad_signature: "Bad signature", unknown_source: "Unknown source", rate_limited: "Over the rate limit" } as const;
type Search = Promise<Record<string, string | string[] | undefined>>;

/** The Overview's "Webhooks refused, 24 h" opens here: the same hour buckets it counts, per source and reason. */
export default async function RefusedDeliveriesPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const params = pageParams(await searchParams);
  const reason = refusalReasons.find((r) => r === params.reason);
  const rows = await listRefusals(await getDb(), { projectId: actor.projectId, since: new Date(Date.now() - DAY), reason });
  const total = rows.reduce((n, r) => n + r.count, 0);
  const tab = (active: boolean) =>
    cn("rounded-md px-3 py-1.5 text-sm", active ? "bg-muted font-medium text-foreground" : "text-muted-foreground hover:text-foreground");

  return (
    <>
      <PageHeader
        title="Refused webhook deliveries"
        description="Deliveries to your sources' URLs that were turned away in the last 24 hours, counted per source and hour. Nothing of them was stored."
      >
        <nav aria-label="Reason" className="flex flex-wrap gap-1">
          <Link href="/events/refused" className={tab(!reason)} aria-current={!reason ? "page" : undefined}>
            Any reason
          </Link>
          {refusalReasons.map((r) => (
            <Link key={r} href={`/events/refused?reason=${r}`} className={tab(reason === r)} aria-current={reason === r ? "page" : undefined}>
              {reasonLabel[r]}
            </Link>
          ))}
        </nav>
      </PageHeader>
      {rows.length === 0 ? (
        <EmptyState
          icon={ShieldCheck}
          title="Nothing refused in the last 24 hours"
          description="A delivery with a wrong signature, to a removed source's URL, or over a source's rate limit would be counted here."
        />
      ) : (
        <>
          <p className="mb-2 text-sm text-muted-foreground">
            {plural(total, "refused delivery", "refused deliveries")}. A bad signature usually means the provider signs with another secret: rotate the source's
            secret on the{" "}
            <Link href="/sources" className="underline underline-offset-2">
              Sources
            </Link>{" "}
            screen and paste the new one into the provider.
          </p>
          <div className="overflow-x-auto rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="pl-4">Source</TableHead>
                  <TableHead>Reason</TableHead>
                  <TableHead className="text-right">Count</TableHead>
                  <TableHead>Last</TableHead>
                  <TableHead className="pr-4">What the sender was told</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell className="pl-4 font-medium">{r.source}</TableCell>
                    <TableCell>
                      <Badge variant={r.reason === "bad_signature" ? "destructive" : "secondary"}>{reasonLabel[r.reason]}</Badge>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{r.count.toLocaleString("en-US")}</TableCell>
                    <TableCell className="text-muted-foreground">
                      <RelativeTime date={r.lastAt} />
                    </TableCell>
                    <TableCell className="max-w-96 pr-4 text-xs break-words whitespace-normal text-muted-foreground">{r.lastDetail}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
    </>
  );
}
