import type { Metadata } from "next";
import Link from "next/link";
import { ShieldAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { QuarantineFilters } from "@/components/mailboxes/quarantine-filters";
import { quarantineHref, quarantineSearch } from "@/components/mailboxes/quarantine-search";
import { QuarantineTable } from "@/components/mailboxes/quarantine-table";
import { pageParams } from "@/lib/http/page-params";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { listQuarantine } from "@/lib/mail/quarantine/list-quarantine";
import { ownerPageOf, ownerPageRead } from "@/lib/mail/quarantine/owner-page";
import { quarantineCategories } from "@/lib/mail/quarantine/quarantine-categories";
import { cn, plural } from "@/lib/utils";
import { deleteQuarantinedAction, releaseMessageAction } from "./actions";

export const metadata: Metadata = { title: "Quarantine" };

const PAGE = 50;
/** The screen's page tokens are bound to its own filters, like the REST list's. */
const LIST = "dashboard_quarantine";
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function QuarantinePage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const db = await getDb();
  const mailboxes = await listMailboxes(db, { actor, limit: 500, ascending: true, after: null });
  const parsed = quarantineSearch.safeParse(raw);
  const filter = parsed.success ? { inbox: parsed.data.inbox, category: parsed.data.category } : null;
  const paged = filter && { ...filter, limit: PAGE, page_token: parsed.data?.cursor };
  const token = paged && ownerPageRead(LIST, actor, paged);
  const mailbox = filter?.inbox ? mailboxes.find((m) => m.id === filter.inbox) : undefined;
  const problem = !parsed.success
    ? parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
    : token && "problem" in token
      ? "This page link no longer matches its filters: start again from the first page."
      : filter?.inbox && !mailbox
        ? `Mailbox ${filter.inbox} was not found.`
        : null;

  const header = (
    <PageHeader
      title="Mailboxes"
      description="Mail kept out of your agents' inboxes: spam flagged by a trusted relay, senders your lists block, and mail that failed SPF, DKIM or DMARC."
    >
      <MailTabs current="/mail/quarantine" />
      <QuarantineFilters values={raw} mailboxes={mailboxes.map((m) => ({ id: m.id, address: m.address }))} />
    </PageHeader>
  );
  if (problem || !filter || !paged) {
    return (
      <>
        {header}
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {problem}{" "}
          <Link href="/mail/quarantine" className="underline underline-offset-2">
            Reset
          </Link>
        </p>
      </>
    );
  }

  const rows = await listQuarantine(db, {
    actor,
    mailboxId: mailbox?.id ?? null,
    category: filter.category === "all" ? undefined : filter.category,
    limit: PAGE + 1,
    after: token && "key" in token ? token.key : null,
  });
  const page = ownerPageOf(LIST, actor, paged, rows, (r) => ({ at: r.pageAt, id: r.id }));
  const filtered = !!filter.inbox || filter.category !== "all";

  return (
    <>
      {header}
      <nav aria-label="Category" className="mb-4 flex flex-wrap items-center gap-1 border-b">
        {(["all", ...quarantineCategories] as const).map((c) => (
          <Link
            key={c}
            href={quarantineHref(raw, { category: c, cursor: undefined })}
            aria-current={filter.category === c ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm capitalize",
              filter.category === c ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {c}
          </Link>
        ))}
      </nav>
      {page.items.length === 0 ? (
        <EmptyState
          icon={ShieldAlert}
          title={filtered ? "Nothing quarantined matches these filters" : "Quarantine is empty"}
          description={
            filtered
              ? "Pick another mailbox or category to see the rest."
              : "Inbound mail lands here instead of a mailbox when a trusted relay flags it as spam, when a sender is on a block list (or outside an allow list), or when it fails SPF, DKIM or DMARC. Release what you trust; agents never see the rest."
          }
          action={
            <Button variant="outline" size="sm" asChild>
              <Link href={filtered ? "/mail/quarantine" : "/mail/lists"}>{filtered ? "Reset filters" : "Edit allow and block lists"}</Link>
            </Button>
          }
        />
      ) : (
        <>
          <QuarantineTable
            rows={page.items.map((r) => ({
              id: r.id,
              mailboxAddress: r.mailboxAddress,
              from: r.fromAddress,
              fromName: r.fromName,
              subject: r.subject,
              preview: r.preview,
              category: r.category,
              reason: r.reason,
              receivedAt: r.msgAt.toISOString(),
            }))}
            releaseAction={releaseMessageAction}
            deleteAction={deleteQuarantinedAction}
          />
          <Pagination
            className="mt-2"
            summary={`${plural(page.items.length, "message")}, newest first`}
            prevHref={paged.page_token ? quarantineHref(raw, { cursor: undefined }) : null}
            nextHref={page.nextPageToken ? quarantineHref(raw, { cursor: page.nextPageToken }) : null}
          />
        </>
      )}
    </>
  );
}
