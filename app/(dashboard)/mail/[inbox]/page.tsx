import type { Metadata } from "next";
import { UntrustedText } from "@/components/ui/untrusted-text";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Inbox, MailOpen } from "lucide-react";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { ComposeDialog, type ComposeActions } from "@/components/mailboxes/compose-dialog";
import { Conversation, type ConversationMessage } from "@/components/mailboxes/conversation";
import { LabelEditor } from "@/components/mailboxes/label-editor";
import { MailKeyboard } from "@/components/mailboxes/mail-keyboard";
import { MailLive } from "@/components/mailboxes/mail-live";
import { MarkRead } from "@/components/mailboxes/mark-read";
import { localDeliveries } from "@/components/mailboxes/owner-mail-reads";
import { decodeCursor, encodeCursor } from "@/components/mailboxes/page-cursor";
import { replyPrefills } from "@/components/mailboxes/reply-prefill";
import { SendPolicySelect } from "@/components/mailboxes/send-policy-select";
import { ThreadFilters } from "@/components/mailboxes/thread-filters";
import { ThreadList } from "@/components/mailboxes/thread-list";
import { labelList, readThreadSearch, threadHref } from "@/components/mailboxes/thread-search";
import { TrashThreadButton } from "@/components/mailboxes/trash-thread-button";
import { pathParam } from "@/components/shell/path-param";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";
import { isProtectedLabel } from "@/lib/mail/labels/system-labels";
import { findMailbox } from "@/lib/mail/mailboxes/mailbox-scope";
import { getThread } from "@/lib/mail/threads/get-thread";
import { listThreads } from "@/lib/mail/threads/list-threads";
import { searchThreads } from "@/lib/mail/threads/search-threads";
import { plural } from "@/lib/utils";
import { completeUploadAction, startUploadAction } from "../../disk/actions";
import { markThreadReadAction, setThreadLabelsAction, trashThreadAction } from "../mailbox-actions";
import { composeDraftAction, composeSendAction, setSendPolicyAction } from "../send-actions";
import { pageParams } from "@/lib/http/page-params";

const composeActions: ComposeActions = {
  sendAction: composeSendAction,
  draftAction: composeDraftAction,
  startAction: startUploadAction,
  completeAction: completeUploadAction,
};

export const metadata: Metadata = { title: "Mailbox" };

const PAGE = 25;
/** The newest messages of a thread shown at once; a longer conversation says so. */
const THREAD_MESSAGES = 100;
/** How long the signed /mail-html URLs on this page work: long enough to read, short enough to be worthless later. */
const HTML_URL_TTL_MS = 60 * 60 * 1000;

type Params = Promise<{ inbox: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

const notFoundOn = (err: unknown): never => {
  if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
  throw err;
};

export default async function MailboxPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { actor } = await requireOwner();
  const { inbox } = await params;
  const search = readThreadSearch(pageParams(await searchParams));
  const db = await getDb();
  const mailbox = await findMailbox(db, actor, pathParam(inbox)).catch(notFoundOn);

  const page = decodeCursor(search.cursor);
  const flags = {
    includeSpam: search.spam === "1",
    includeBlocked: search.blocked === "1",
    includeUnauthenticated: search.unauth === "1",
    includeTrash: search.trash === "1",
  };
  const { rows, resume } = search.q
    ? await searchThreads(db, { actor, inboxId: mailbox.id, q: search.q, limit: PAGE + 1, page })
    : {
        resume: null,
        rows: await listThreads(db, {
          actor,
          filter: {
            inboxId: mailbox.id,
            ...flags,
            labels: labelList(search.labels),
            senders: search.from ? [search.from] : undefined,
            subject: search.subject ? [search.subject] : undefined,
          },
          limit: PAGE + 1,
          ascending: false,
          page,
        }),
      };
  const threads = rows.slice(0, PAGE);
  const last = threads[threads.length - 1];
  // A search whose 1,000 matches ran out before the page filled goes on from where they ended (searchThreads).
  const nextKey = rows.length > PAGE && last ? { at: last.pageAt, id: last.id } : resume;
  const nextCursor = nextKey ? encodeCursor(nextKey) : null;

  const open = search.thread
    ? await getThread(db, { actor, threadId: search.thread, inboxId: mailbox.id, limit: THREAD_MESSAGES, page: null }).catch(notFoundOn)
    : null;
  const full = search.view === "full";
  const expires = new Date(Date.now() + HTML_URL_TTL_MS);
  const local = await localDeliveries(
    db,
    actor.projectId,
    (open?.messages ?? []).map((m) => m.id),
  );
  const messages: ConversationMessage[] = (open?.messages ?? []).map(({ view: m }) => {
    const html = full ? m.html : (m.extractedHtml ?? m.html);
    const opts = { extracted: !full && m.extractedHtml !== null };
    return {
      id: m.messageId,
      from: m.from,
      to: m.to,
      cc: m.cc,
      at: m.timestamp,
      direction: m.direction,
      labels: m.labels,
      authentication: m.authentication,
      local: local.has(m.messageId),
      text: full ? m.text : (m.extractedText ?? m.text),
      htmlUrl: html ? mailHtmlUrl(actor.projectId, m.messageId, expires, opts) : null,
      htmlWithImagesUrl: html ? mailHtmlUrl(actor.projectId, m.messageId, expires, { ...opts, images: true }) : null,
      remoteImages: html ? sanitizeMailHtml(html).remoteImages : 0,
      attachments: m.attachments.map((a) => ({
        id: a.attachmentId,
        filename: a.filename,
        size: a.size,
        href: `/mail/${mailbox.id}/attachments/${a.attachmentId}`,
      })),
    };
  });
  const latest = open?.messages[open.messages.length - 1]?.view;
  const prefills = latest ? replyPrefills(mailbox.address, latest) : null;
  const closed = threadHref(mailbox.id, search, { thread: undefined });
  const listed = threads.map((t) => ({ id: t.id, href: threadHref(mailbox.id, search, { thread: t.id }) }));
  const filtered = !!(search.q || search.labels || search.from || search.subject);

  return (
    <>
      <PageHeader
        title={mailbox.displayName ? <UntrustedText text={mailbox.displayName} /> : mailbox.address}
        description={
          <span className="inline-flex items-center gap-1 font-mono text-xs">
            {mailbox.address}
            <CopyButton value={mailbox.address} label={`Copy ${mailbox.address}`} size="icon-xs" />
          </span>
        }
        actions={
          <div className="flex items-center gap-2">
            <MailLive mailboxId={mailbox.id} refresh={!search.cursor} />
            <ComposeDialog inboxId={mailbox.id} from={mailbox.address} mode="new" actions={composeActions} />
          </div>
        }
      />
      <div className="mb-4">
        <SendPolicySelect inboxId={mailbox.id} address={mailbox.address} value={mailbox.sendPolicy} setAction={setSendPolicyAction} />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(20rem,26rem)_minmax(0,1fr)]">
        <section aria-label="Thread list" className="grid min-w-0 grid-cols-1 content-start gap-2">
          <ThreadFilters inboxId={mailbox.id} values={search} />
          <div className="rounded-lg border">
            {threads.length === 0 ? (
              <EmptyState
                icon={Inbox}
                className="border-0"
                title={filtered ? "No threads match" : "No mail yet"}
                description={
                  filtered
                    ? "Change or reset the filters."
                    : `Mail sent to ${mailbox.address} appears here as it arrives. Spam, blocked and unauthenticated mail are behind the Include toggles.`
                }
              />
            ) : (
              <ThreadList
                inboxId={mailbox.id}
                search={search}
                rows={threads.map((t) => ({
                  id: t.id,
                  subject: t.view.subject,
                  preview: t.view.preview,
                  senders: t.view.senders,
                  labels: t.view.labels,
                  messageCount: t.view.messageCount,
                  at: t.view.timestamp,
                }))}
              />
            )}
          </div>
          <Pagination
            summary={`${plural(threads.length, "thread")}${search.q ? " matching (search ignores the other filters)" : ""}, newest first`}
            prevHref={search.cursor ? threadHref(mailbox.id, search, { cursor: undefined, thread: undefined }) : null}
            nextHref={nextCursor ? threadHref(mailbox.id, search, { cursor: nextCursor, thread: undefined }) : null}
          />
          <MailKeyboard threads={listed} current={open?.thread.threadId ?? null} closedHref={closed} trashAction={trashThreadAction} />
        </section>
        <section aria-label="Conversation" className="grid min-w-0 grid-cols-1 content-start gap-3">
          {open ? (
            <>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="min-w-0 text-base font-semibold break-words">
                  {open.thread.subject ? <UntrustedText text={open.thread.subject} /> : "(no subject)"}
                </h2>
                <div className="flex flex-wrap items-center gap-2">
                  <nav aria-label="Body view" className="inline-flex h-8 items-center rounded-lg bg-muted p-[3px] text-xs">
                    {(["extracted", "full"] as const).map((v) => (
                      <Link
                        key={v}
                        href={threadHref(mailbox.id, search, { view: v === "full" ? "full" : undefined })}
                        aria-current={(full ? "full" : "extracted") === v ? "page" : undefined}
                        className={`inline-flex h-full items-center rounded-md px-2 font-medium ${(full ? "full" : "extracted") === v ? "bg-background shadow-sm" : "text-muted-foreground hover:text-foreground"}`}
                      >
                        {v === "full" ? "Full message" : "Reply only"}
                      </Link>
                    ))}
                  </nav>
                  {latest &&
                    (["reply", "reply_all", "forward"] as const).map((mode) => (
                      <ComposeDialog
                        key={`${mode}-${latest.messageId}`}
                        inboxId={mailbox.id}
                        from={mailbox.address}
                        mode={mode}
                        prefill={prefills?.[mode]}
                        actions={composeActions}
                      />
                    ))}
                  {!open.thread.labels.includes("trash") && (
                    <TrashThreadButton threadId={open.thread.threadId} afterHref={closed} trashAction={trashThreadAction} />
                  )}
                </div>
              </div>
              <LabelEditor
                threadId={open.thread.threadId}
                labels={open.thread.labels}
                editable={open.thread.labels.filter((l) => !isProtectedLabel(l))}
                setLabelsAction={setThreadLabelsAction}
              />
              {open.thread.messageCount > messages.length && (
                <p className="text-xs text-muted-foreground">
                  The newest {messages.length} of {open.thread.messageCount} messages.
                </p>
              )}
              <Conversation subject={open.thread.subject ?? "(no subject)"} messages={messages} />
              <MarkRead threadId={open.thread.threadId} unread={open.thread.labels.includes("unread")} markReadAction={markThreadReadAction} />
            </>
          ) : (
            <EmptyState icon={MailOpen} title="No thread open" description="Pick a thread on the left, or press j to open the first." />
          )}
        </section>
      </div>
    </>
  );
}
