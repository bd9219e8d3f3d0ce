import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { ListEntriesAddForm } from "@/components/mailboxes/list-entries-add-form";
import { ListEntriesScope } from "@/components/mailboxes/list-entries-scope";
import { directionMeaning, listDirections, listsHref, listsSearch } from "@/components/mailboxes/list-entries-search";
import { ListEntriesTable } from "@/components/mailboxes/list-entries-table";
import { pageParams } from "@/lib/http/page-params";
import { requireOwner } from "@/lib/auth/current-owner";
import type { Actor } from "@/lib/actor";
import { getDb, type Db } from "@/lib/db/client";
import { listListEntries } from "@/lib/mail/lists/list-list-entries";
import { mailboxChoices } from "@/lib/mail/mailboxes/mailbox-choices";
import { ownerPageOf, ownerPageRead } from "@/lib/mail/quarantine/owner-page";
import { cn, plural } from "@/lib/utils";
import { addListEntryAction, removeListEntryAction } from "./actions";

export const metadata: Metadata = { title: "Allow and block lists" };

const PAGE = 100;
type Search = Promise<Record<string, string | string[] | undefined>>;
type ListType = "allow" | "block";

export default async function ListsPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const db = await getDb();
  const parsed = listsSearch.safeParse(raw);
  const search = parsed.success ? parsed.data : listsSearch.parse({});
  const { options: mailboxes, chosen } = await mailboxChoices(db, actor, search.scope === "global" ? null : search.scope);
  const mailbox = search.scope === "global" ? null : chosen;
  const owner = mailbox ? "this mailbox's" : "the project's";

  const header = (
    <PageHeader
      title="Mailboxes"
      description="Allow and block lists decide whose mail reaches a mailbox and whom agents may write to. A mailbox's own list wins over the project's; the most specific entry decides (an address over a domain, a domain also covers its subdomains)."
    >
      <MailTabs current="/mail/lists" />
      <ListEntriesScope scope={mailbox?.id ?? "global"} direction={search.direction} mailboxes={mailboxes.map((m) => ({ id: m.id, address: m.address }))} />
    </PageHeader>
  );
  if (!parsed.success || mailbox === undefined) {
    return (
      <>
        {header}
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {parsed.success ? `Mailbox ${search.scope} was not found.` : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}{" "}
          <Link href="/mail/lists" className="underline underline-offset-2">
            Show the global lists
          </Link>
        </p>
      </>
    );
  }

  const filter = { scope: search.scope, direction: search.direction };
  const [allow, block] = await Promise.all(
    (["allow", "block"] as const).map((type) => listPage(db, actor, { ...filter, type, mailboxId: mailbox?.id, token: search[type] })),
  );

  return (
    <>
      {header}
      <nav aria-label="Direction" className="mb-4 flex flex-wrap items-center gap-1 border-b">
        {listDirections.map((d) => (
          <Link
            key={d}
            href={listsHref(raw, { direction: d, allow: undefined, block: undefined })}
            aria-current={search.direction === d ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm capitalize",
              search.direction === d ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {d}
          </Link>
        ))}
      </nav>
      <ul className="mb-4 grid gap-0.5 text-sm text-muted-foreground">
        {listDirections.map((d) => (
          <li key={d} className={cn(d === search.direction && "text-foreground")}>
            <span className="font-medium capitalize">{d}:</span> {directionMeaning[d]}
          </li>
        ))}
        <li>
          <span className="font-medium">Allow lists:</span> a non-empty allow list admits only its entries; everyone else is blocked (held in Quarantine for
          receive and reply).
        </li>
      </ul>
      <div className="mb-6">
        <ListEntriesAddForm key={`${filter.scope}-${filter.direction}`} direction={search.direction} inboxId={mailbox?.id} addAction={addListEntryAction} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {([allow, block] as const).map((list, i) => {
          const type: ListType = i === 0 ? "allow" : "block";
          return (
            <section key={type} aria-labelledby={`list-${type}`} className="grid content-start gap-2">
              <h2 id={`list-${type}`} className="text-sm font-medium">
                {type === "allow" ? "Allow" : "Block"} list{" "}
                <span className="font-normal text-muted-foreground">
                  — {owner} {search.direction} {type} list
                </span>
              </h2>
              {list.problem ? (
                <p role="alert" className="text-sm text-destructive">
                  {list.problem}
                </p>
              ) : list.items.length === 0 ? (
                <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
                  {type === "allow"
                    ? "Empty: nobody is singled out, so every address not blocked is admitted."
                    : "Empty: no address or domain is refused here."}
                </p>
              ) : (
                <ListEntriesTable
                  type={type}
                  direction={search.direction}
                  inboxId={mailbox?.id}
                  owner={owner}
                  rows={list.items.map((e) => ({ entry: e.entry, entryType: e.entryType, reason: e.reason, createdAt: e.createdAt.toISOString() }))}
                  removeAction={removeListEntryAction}
                />
              )}
              {(search[type] || list.next) && (
                <Pagination
                  summary={`${plural(list.items.length, "entry", "entries")}, newest first`}
                  prevHref={search[type] ? listsHref(raw, { [type]: undefined }) : null}
                  nextHref={list.next ? listsHref(raw, { [type]: list.next }) : null}
                />
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}

/** One list's page; its token is bound to the scope, direction and list it was issued for. */
async function listPage(
  db: Db,
  actor: Actor,
  o: { scope: string; direction: (typeof listDirections)[number]; type: ListType; mailboxId?: string; token?: string },
) {
  const name = `dashboard_list_${o.type}`;
  const paged = { scope: o.scope, direction: o.direction, limit: PAGE, page_token: o.token || undefined };
  const read = ownerPageRead(name, actor, paged);
  if (read && "problem" in read) return { items: [], next: null, problem: "This page link no longer matches its list: start again from the first page." };
  const { rows } = await listListEntries(db, {
    actor,
    inboxId: o.mailboxId,
    direction: o.direction,
    type: o.type,
    limit: PAGE + 1,
    after: read && "key" in read ? read.key : null,
  });
  const page = ownerPageOf(name, actor, paged, rows, (r) => ({ at: r.pageAt, id: r.id }));
  return { items: page.items, next: page.nextPageToken, problem: null };
}
