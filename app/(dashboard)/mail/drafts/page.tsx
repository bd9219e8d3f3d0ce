import type { Metadata } from "next";
import Link from "next/link";
import { FileText, MailCheck } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { DraftDetail, type DraftDetailView } from "@/components/mailboxes/draft-detail";
import { DraftsList } from "@/components/mailboxes/drafts-list";
import { decodeCursor, encodeCursor } from "@/components/mailboxes/page-cursor";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { ownerDraftHash } from "@/lib/mail/drafts/owner-draft-hash";
import { countDraftsAwaitingApproval, type DraftTab, draftTabs, ownerGetDraft, ownerListDrafts } from "@/lib/mail/drafts/owner-list-drafts";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";
import { cn } from "@/lib/utils";
import { decideAction } from "../../approvals/actions";
import { deleteDraftAction, sendDraftNowAction, updateDraftAction } from "../send-actions";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Drafts" };

const PAGE = 25;
const HTML_URL_TTL_MS = 60 * 60 * 1000;
const TAB_LABELS: Record<DraftTab, string> = { approval: "Awaiting approval", scheduled: "Scheduled", failed: "Failed", all: "All" };
const ownerActions = { sendNowAction: sendDraftNowAction, deleteAction: deleteDraftAction, updateAction: updateDraftAction };

type Search = Promise<Record<string, string | string[] | undefined>>;

/**
 * Every mailbox's drafts: what waits for the owner's approval first, then scheduled, failed or rejected, and all.
 * The layout's approvals listener re-renders it when a draft is held or decided elsewhere.
 */
export default async function DraftsPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const params = pageParams(await searchParams);
  const tab = draftTabs.find((t) => t === params.tab) ?? "approval";
  const db = await getDb();
  const href = (q: { tab?: DraftTab; cursor?: string; draft?: string }) => {
    const s = new URLSearchParams(Object.entries({ tab: tab === "approval" ? undefined : tab, ...q }).filter((e): e is [string, string] => !!e[1]));
    return s.size ? `/mail/drafts?${s}` : "/mail/drafts";
  };
  const [rows, awaiting, open] = await Promise.all([
    ownerListDrafts(db, { projectId: actor.projectId, tab, limit: PAGE + 1, after: decodeCursor(params.cursor) }),
    countDraftsAwaitingApproval(db, actor.projectId),
    params.draft ? ownerGetDraft(db, { projectId: actor.projectId, draftId: params.draft }) : null,
  ]);
  const drafts = rows.slice(0, PAGE);
  const last = drafts[drafts.length - 1];
  const next = rows.length > PAGE && last ? encodeCursor({ at: last.pageAt, id: last.id }) : null;

  let detail: DraftDetailView | null = null;
  if (open) {
    detail = {
      id: open.id,
      mailbox: open.mailboxAddress,
      kind: open.kind,
      agent: open.agent,
      to: open.to,
      cc: open.cc,
      bcc: open.bcc,
      subject: open.subject,
      text: open.text,
      htmlUrl: open.html ? mailHtmlUrl(actor.projectId, open.id, new Date(Date.now() + HTML_URL_TTL_MS)) : null,
      // Remote images too, on request: words in an image are part of what the owner approves.
      htmlWithImagesUrl: open.html ? mailHtmlUrl(actor.projectId, open.id, new Date(Date.now() + HTML_URL_TTL_MS), { images: true }) : null,
      remoteImages: open.html ? sanitizeMailHtml(open.html).remoteImages : 0,
      status: open.sendStatus,
      reason: open.sendReason,
      sendAt: open.sendAt?.toISOString() ?? null,
      updatedAt: open.updatedAt.toISOString(),
      version: open.version,
      requestId: open.approvalRequestId,
      files: open.files,
      hash: await ownerDraftHash(db, open),
    };
  }

  return (
    <>
      <PageHeader title="Mailboxes" description="Drafts of every mailbox: approve held sends, and edit, schedule or send the rest.">
        <MailTabs current="/mail/drafts" />
      </PageHeader>
      <nav aria-label="Draft status" className="mb-4 flex flex-wrap items-center gap-1 border-b">
        {draftTabs.map((t) => (
          <Link
            key={t}
            href={`/mail/drafts${t === "approval" ? "" : `?tab=${t}`}`}
            aria-current={tab === t ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm",
              tab === t ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {TAB_LABELS[t]}
            {t === "approval" && <span className="ml-1 text-xs tabular-nums text-muted-foreground">{awaiting}</span>}
          </Link>
        ))}
      </nav>
      <div className="grid gap-4 lg:grid-cols-[minmax(20rem,26rem)_1fr]">
        <section aria-label="Draft list" className="grid min-w-0 grid-cols-1 content-start gap-2">
          <div className="rounded-lg border">
            {drafts.length === 0 ? (
              <EmptyState
                icon={tab === "approval" ? MailCheck : FileText}
                className="border-0"
                title={tab === "approval" ? "Nothing waits for you" : `No ${tab === "all" ? "" : `${TAB_LABELS[tab].toLowerCase()} `}drafts`}
                description={
                  tab === "approval"
                    ? "Sends from a mailbox whose send policy is Approval appear here until you approve or reject them."
                    : "Drafts come from agents (create_draft) and from Save draft or Schedule… in a mailbox."
                }
              />
            ) : (
              <DraftsList
                current={open?.id ?? null}
                rows={drafts.map((d) => ({
                  id: d.id,
                  href: href({ cursor: params.cursor, draft: d.id }),
                  mailbox: d.mailboxAddress,
                  subject: d.subject,
                  recipients: [...d.to, ...d.cc, ...d.bcc],
                  status: d.sendStatus,
                  sendAt: d.sendAt?.toISOString() ?? null,
                  updatedAt: d.updatedAt.toISOString(),
                  files: d.files.length,
                  agent: d.agent,
                }))}
              />
            )}
          </div>
          <Pagination
            summary={`${drafts.length} drafts, newest change first`}
            prevHref={params.cursor ? href({}) : null}
            nextHref={next ? href({ cursor: next }) : null}
          />
        </section>
        <section aria-label="Draft" className="min-w-0">
          {detail ? (
            <DraftDetail d={detail} decideAction={decideAction} ownerActions={ownerActions} />
          ) : (
            <EmptyState
              icon={FileText}
              title={params.draft ? "This draft is gone" : "No draft open"}
              description={params.draft ? "It was sent or deleted." : "Pick a draft on the left to see exactly what it sends."}
            />
          )}
        </section>
      </div>
    </>
  );
}
