import type { Metadata } from "next";
import { nameAddress } from "@/lib/mail/messages/name-address";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ChevronLeft, Paperclip, ShieldQuestion } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { UntrustedList, UntrustedText } from "@/components/ui/untrusted-text";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { formatBytes } from "@/components/events/format-bytes";
import { MessageBody } from "@/components/mailboxes/message-body";
import { MessageStatusBadge } from "@/components/mail/message-status-badge";
import { deliveriesOf } from "@/components/mail/outbound-deliveries";
import { OutboundDeliveryList } from "@/components/mail/outbound-delivery-list";
import { ResolveUnknownButtons } from "@/components/mail/resolve-unknown-buttons";
import { pathParam } from "@/components/shell/path-param";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { getOutboundMessage } from "@/lib/mail/outbound/get-outbound-message";
import { resolveUnknownAction } from "../actions";

export const metadata: Metadata = { title: "Outbound message" };

/** How long the signed /mail-html URL on this page works, as on the mailbox screen. */
const HTML_URL_TTL_MS = 60 * 60 * 1000;

type Params = Promise<{ message: string }>;

/**
 * One sent message as the owner audits it: who it went to, the body and headers as stored, its attachments, and
 * each delivery (local mailbox or relay transaction) with the relay's answer per recipient. A held message links to
 * the approval request that decides it. An inbound message id (a ledger subject, say) opens its thread instead.
 */
export default async function OutboundMessagePage({ params }: { params: Params }) {
  const { actor } = await requireOwner();
  const id = pathParam((await params).message);
  if (!/^msg_[A-Za-z0-9]{1,40}$/.test(id)) notFound();
  const db = await getDb();
  const found = await getOutboundMessage(db, { projectId: actor.projectId, messageId: id });
  if (!found) notFound();
  const { message: m, attachments, mailbox, requestId } = found;
  if (m.direction === "inbound") redirect(`/mail/${m.mailboxId}?thread=${m.threadId}`);
  const deliveries = (await deliveriesOf(db, actor.projectId, [m.id])).get(m.id) ?? [];
  const subject = m.subject || "(no subject)";
  const htmlUrl = m.html ? mailHtmlUrl(actor.projectId, m.id, new Date(Date.now() + HTML_URL_TTL_MS)) : null;
  const headers = Object.entries({ ...m.headers, ...m.customHeaders });
  const address = m.fromAddress ?? mailbox?.address;
  const from = address ? nameAddress(m.fromName, address) : "—";

  return (
    <>
      <PageHeader
        title={<UntrustedText text={subject} />}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <MessageStatusBadge status={m.status} />
            <span>
              Queued <RelativeTime date={m.createdAt} />
              {m.sentAt && (
                <>
                  {" "}
                  · sent <RelativeTime date={m.sentAt} />
                </>
              )}
            </span>
          </span>
        }
        actions={
          <Button variant="outline" size="sm" asChild>
            <Link href="/mail/outbound">
              <ChevronLeft />
              Outbound
            </Link>
          </Button>
        }
      />
      {requestId && (
        <div role="note" className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          <ShieldQuestion className="size-4 shrink-0" aria-hidden />
          {m.status === "pending" ? "This message waits for your approval." : "This message went through an approval request."}
          <Link href={`/approvals/${requestId}`} className="font-medium underline underline-offset-2">
            Open the approval request
          </Link>
        </div>
      )}
      {m.status === "unknown" && (
        <div className="mb-4">
          <ResolveUnknownButtons messageId={m.id} resolveAction={resolveUnknownAction} />
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <div className="grid min-w-0 content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Message</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <dl className="grid gap-1 text-sm sm:grid-cols-[6rem_minmax(0,1fr)]">
                <Field label="From">
                  <UntrustedText text={from} />
                </Field>
                <Field label="To">
                  <UntrustedList items={m.to} empty="—" />
                </Field>
                {(
                  [
                    ["Cc", m.cc],
                    ["Bcc", m.bcc],
                    ["Reply-To", m.replyToAddresses],
                  ] as const
                ).map(
                  ([label, items]) =>
                    items.length > 0 && (
                      <Field key={label} label={label}>
                        <UntrustedList items={items} empty="—" />
                      </Field>
                    ),
                )}
                <Field label="Agent">{m.agent ? <UntrustedText text={m.agent} /> : "—"}</Field>
              </dl>
              <section aria-label="Body" className="min-w-0 border-t pt-3">
                <MessageBody htmlUrl={htmlUrl} htmlWithImagesUrl={null} remoteImages={0} text={m.text} subject={subject} />
              </section>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Headers</CardTitle>
            </CardHeader>
            <CardContent>
              {headers.length === 0 && !m.rfcMessageId ? (
                <p className="text-sm text-muted-foreground">No headers stored yet: they are written when the message is composed for sending.</p>
              ) : (
                <dl aria-label="Headers" className="grid gap-1 font-mono text-xs sm:grid-cols-[12rem_minmax(0,1fr)]">
                  {m.rfcMessageId && !headers.some(([k]) => k.toLowerCase() === "message-id") && <Field label="Message-ID">{m.rfcMessageId}</Field>}
                  {m.inReplyTo && <Field label="In-Reply-To">{m.inReplyTo}</Field>}
                  {headers.map(([k, v]) => (
                    <Field key={k} label={revealInvisible(k)}>
                      <UntrustedText text={v} />
                    </Field>
                  ))}
                </dl>
              )}
            </CardContent>
          </Card>
        </div>
        <div className="grid min-w-0 content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Delivery</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2 text-sm">
              <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-1">
                <Field label="Attempts">{m.attempts}</Field>
                <Field label="Relay's answer">{m.deliveryResponse ? <UntrustedText text={m.deliveryResponse} /> : "—"}</Field>
                {m.lastError && (
                  <Field label="Last error">
                    <UntrustedText className="text-destructive" text={m.lastError} />
                  </Field>
                )}
              </dl>
              {deliveries.length > 0 ? <OutboundDeliveryList list={deliveries} /> : <p className="text-xs text-muted-foreground">No delivery attempts yet.</p>}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Attachments</CardTitle>
            </CardHeader>
            <CardContent>
              {attachments.length === 0 ? (
                <p className="text-sm text-muted-foreground">No attachments.</p>
              ) : (
                <ul aria-label="Attachments" className="grid gap-1 text-sm">
                  {attachments.map((a) => (
                    <li key={a.id} className="flex min-w-0 items-center gap-2">
                      <Paperclip className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
                      {mailbox && !mailbox.deletedAt ? (
                        <a href={`/mail/${m.mailboxId}/attachments/${a.id}`} className="min-w-0 truncate underline underline-offset-2" download>
                          {a.name}
                        </a>
                      ) : (
                        <span className="min-w-0 truncate">{a.name}</span>
                      )}
                      <span className="ml-auto shrink-0 text-xs text-muted-foreground tabular-nums">
                        {a.contentType} · {formatBytes(a.sizeBytes)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
          <p className="flex items-center gap-1 font-mono text-xs text-muted-foreground">
            {m.id}
            <CopyButton value={m.id} label="Copy the message id" size="icon-xs" />
          </p>
        </div>
      </div>
    </>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </>
  );
}
