import type { Metadata } from "next";
import Link from "next/link";
import { MailX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { RejectionsSearch } from "@/components/mailboxes/rejections-search";
import { RejectionsTable } from "@/components/mailboxes/rejections-table";
import { pageParams } from "@/lib/http/page-params";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listRejections } from "@/lib/mail/quarantine/list-rejections";
import { ownerPageOf, ownerPageRead } from "@/lib/mail/quarantine/owner-page";
import { plural } from "@/lib/utils";

export const metadata: Metadata = { title: "Rejected mail" };

const PAGE = 50;
const LIST = "dashboard_rejections";
type Search = Promise<Record<string, string | string[] | undefined>>;

const href = (q: string | undefined, cursor?: string) => {
  const s = new URLSearchParams(Object.entries({ q, cursor }).filter((e): e is [string, string] => !!e[1]));
  return s.size ? `/mail/rejected?${s}` : "/mail/rejected";
};

export default async function RejectedMailPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const q = raw.q?.trim().slice(0, 320) || undefined;
  const paged = { q, limit: PAGE, page_token: raw.cursor || undefined };
  const token = ownerPageRead(LIST, actor, paged);
  const db = await getDb();
  const rows = token && "problem" in token ? null : await listRejections(db, { actor, q, limit: PAGE + 1, after: token && "key" in token ? token.key : null });
  const page = rows && ownerPageOf(LIST, actor, paged, rows, (r) => ({ at: r.pageAt, id: r.id }));

  return (
    <>
      <PageHeader
        title="Mailboxes"
        description="Why did my mail not arrive? Mail this server refused while the sender was still connected: unknown or disabled addresses, oversize messages and other SMTP-time refusals to your addresses, kept 30 days (during a flood, the first 60 a minute per domain)."
      >
        <MailTabs current="/mail/rejected" />
        <RejectionsSearch q={q} />
      </PageHeader>
      {!page ? (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          This page link no longer matches its search.{" "}
          <Link href={href(q)} className="underline underline-offset-2">
            Start from the newest
          </Link>
        </p>
      ) : page.items.length === 0 ? (
        <EmptyState
          icon={MailX}
          title={q ? `No refusals mention “${q}”` : "No mail has been refused"}
          description={
            q
              ? "Nothing to or from that address was refused in the last 30 days. If the mail still did not arrive, look in Quarantine: accepted mail that was blocked, spam or unauthenticated waits there."
              : "Each refusal during the SMTP conversation to one of your addresses is recorded here with the sender's IP, MAIL FROM, RCPT, the code and the reason. Accepted mail that was held back is in Quarantine instead."
          }
          action={
            <Button variant="outline" size="sm" asChild>
              <Link href="/mail/quarantine">Open Quarantine</Link>
            </Button>
          }
        />
      ) : (
        <>
          <RejectionsTable
            rows={page.items.map((r) => ({
              id: r.id,
              at: r.at.toISOString(),
              remoteIp: r.remoteIp,
              helo: r.helo,
              mailFrom: r.mailFrom,
              rcpt: r.rcpt,
              smtpCode: r.smtpCode,
              reason: r.reason,
            }))}
          />
          <Pagination
            className="mt-2"
            summary={`${plural(page.items.length, "refusal")}, newest first`}
            prevHref={paged.page_token ? href(q) : null}
            nextHref={page.nextPageToken ? href(q, page.nextPageToken) : null}
          />
        </>
      )}
    </>
  );
}
