import type { Metadata } from "next";
import { Inbox } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { MailLive } from "@/components/mailboxes/mail-live";
import { MailboxesTable } from "@/components/mailboxes/mailboxes-table";
import { NewMailboxDialog } from "@/components/mailboxes/new-mailbox-dialog";
import { lastActivity, unreadCounts } from "@/components/mailboxes/owner-mail-reads";
import { decodeCursor, encodeCursor } from "@/components/mailboxes/page-cursor";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listDomains } from "@/lib/mail/domains/list-domains";
import { listMailboxes } from "@/lib/mail/mailboxes/list-mailboxes";
import { plural } from "@/lib/utils";
import { createMailboxAction, deleteMailboxAction } from "./mailbox-actions";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Mailboxes" };

const PAGE = 50;
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function MailboxesPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const params = pageParams(await searchParams);
  const db = await getDb();
  const [rows, domains] = await Promise.all([
    listMailboxes(db, { actor, limit: PAGE + 1, ascending: false, after: decodeCursor(params.cursor) }),
    listDomains(db, { projectId: actor.projectId }),
  ]);
  const page = rows.slice(0, PAGE);
  const ids = page.map((m) => m.id);
  const [unread, activity] = await Promise.all([unreadCounts(db, actor.projectId, ids), lastActivity(db, actor.projectId, ids)]);
  const next = rows.length > PAGE ? encodeCursor({ at: page[page.length - 1].pageAt, id: page[page.length - 1].id }) : null;
  const dialog = <NewMailboxDialog domains={domains.filter((d) => d.verified).map((d) => d.domain)} createAction={createMailboxAction} />;

  return (
    <>
      <PageHeader
        title="Mailboxes"
        description="Addresses your agents read and send from; open one to read its mail."
        actions={
          <div className="flex items-center gap-3">
            <MailLive refresh={!params.cursor} />
            {dialog}
          </div>
        }
      >
        <MailTabs current="/mail" />
      </PageHeader>
      {page.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title="No mailboxes yet"
          description="Create a mailbox for an agent, or let one create its own with create_inbox. Mail to it shows up here."
          action={dialog}
        />
      ) : (
        <>
          <MailboxesTable
            deleteAction={deleteMailboxAction}
            rows={page.map((m) => ({
              id: m.id,
              address: m.address,
              displayName: m.displayName,
              status: m.status,
              sendPolicy: m.sendPolicy,
              isDefault: m.isDefault,
              unread: unread.get(m.id) ?? 0,
              lastActivityAt: activity.get(m.id)?.toISOString() ?? null,
            }))}
          />
          <Pagination
            className="mt-2"
            summary={`${plural(page.length, "mailbox", "mailboxes")}, newest first`}
            prevHref={params.cursor ? "/mail" : null}
            nextHref={next ? `/mail?cursor=${next}` : null}
          />
        </>
      )}
    </>
  );
}
