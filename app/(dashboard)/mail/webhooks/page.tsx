import type { Metadata } from "next";
import Link from "next/link";
import { Plus, Webhook } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { MailTabs } from "@/components/mail/mail-tabs";
import { pageParams } from "@/lib/http/page-params";
import { AttemptFilters } from "@/components/webhooks/attempt-filters";
import { AttemptsChart } from "@/components/webhooks/attempts-chart";
import { AttemptsTable } from "@/components/webhooks/attempts-table";
import { lastAttempts, projectWebhooks, SCREEN_WEBHOOKS } from "@/components/webhooks/owner-webhook-reads";
import { WebhookFormDialog } from "@/components/webhooks/webhook-form-dialog";
import { attemptWindows, webhookSearch, webhooksHref } from "@/components/webhooks/webhook-search";
import { WebhooksTable } from "@/components/webhooks/webhooks-table";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { pickerMailboxes } from "@/lib/mail/mailboxes/mailbox-choices";
import { MAIL_EVENT_TYPES } from "@/lib/mail/events/event-types";
import { ownerPageOf, ownerPageRead } from "@/lib/mail/quarantine/owner-page";
import { listWebhookAttempts } from "@/lib/mail/webhooks/list-webhook-attempts";
import { webhookAttemptsPerHour } from "@/lib/mail/webhooks/webhook-attempts-per-hour";
import { webhookCreators } from "@/lib/mail/webhooks/webhook-creators";
import { openWebhookHeaders } from "@/lib/mail/webhooks/webhook-headers";
import { plural } from "@/lib/utils";
import {
  deleteWebhookAction,
  resendDeliveryAction,
  rotateWebhookSecretAction,
  saveWebhookAction,
  sendTestEventAction,
  setWebhookEnabledAction,
  updateWebhookHeadersAction,
} from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

const PAGE = 50;
/** The screen's page tokens are bound to its own filters, like the REST list's. */
const LIST = "dashboard_webhook_attempts";
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const db = await getDb();
  const [hooks, perHour] = await Promise.all([projectWebhooks(db, actor.projectId), webhookAttemptsPerHour(db, { projectId: actor.projectId, hours: 24 })]);
  const shown = hooks.slice(0, SCREEN_WEBHOOKS);
  // A watched mailbox past the picker's first 500 is offered too: unshown, an edit dropped it.
  const picker = await pickerMailboxes(
    db,
    actor,
    shown.flatMap((w) => w.inboxIds),
  );
  const mailboxes = picker.options;
  const [creators, last] = await Promise.all([
    webhookCreators(
      db,
      actor.projectId,
      shown.map((w) => w.keyId),
    ),
    lastAttempts(
      db,
      actor.projectId,
      shown.map((w) => w.id),
    ),
  ]);
  const address = new Map(mailboxes.map((m) => [m.id, m.address]));
  const mailboxOptions = mailboxes.map((m) => ({ id: m.id, address: m.address }));
  const actions = {
    saveAction: saveWebhookAction,
    setEnabledAction: setWebhookEnabledAction,
    deleteAction: deleteWebhookAction,
    rotateAction: rotateWebhookSecretAction,
    headersAction: updateWebhookHeadersAction,
    testAction: sendTestEventAction,
  };

  const parsed = webhookSearch.safeParse(raw);
  const filter = parsed.success ? { webhook: parsed.data.webhook, outcome: parsed.data.outcome, type: parsed.data.type, window: parsed.data.window } : null;
  const paged = { ...filter, limit: PAGE, page_token: parsed.data?.cursor };
  const token = filter && ownerPageRead(LIST, actor, paged);
  const problem = !parsed.success
    ? parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
    : token && "problem" in token
      ? "This page link no longer matches its filters: start again from the first page."
      : filter?.webhook && !hooks.some((w) => w.id === filter.webhook)
        ? `Webhook ${filter.webhook} was not found.`
        : null;

  const attempts =
    filter && !problem
      ? await listWebhookAttempts(db, {
          actor,
          filter: {
            webhookId: filter.webhook,
            outcome: filter.outcome,
            eventType: filter.type,
            since: filter.window ? new Date(Date.now() - attemptWindows[filter.window] * 3600_000) : undefined,
          },
          limit: PAGE + 1,
          after: token && "key" in token ? token.key : null,
        })
      : [];
  const page = ownerPageOf(LIST, actor, paged, attempts, (r) => ({ at: r.pageAt, id: r.id }));
  const filtered = !!filter && Object.values(filter).some(Boolean);

  return (
    <>
      <PageHeader
        title="Mailboxes"
        description="Webhooks push mail events to your endpoints, signed (Standard Webhooks), with retries. Agents create their own; you see and manage them all."
        actions={
          <WebhookFormDialog
            eventTypes={MAIL_EVENT_TYPES}
            mailboxes={mailboxOptions}
            moreMailboxes={picker.more}
            saveAction={saveWebhookAction}
            trigger={
              <Button size="sm">
                <Plus />
                New webhook
              </Button>
            }
          />
        }
      >
        <MailTabs current="/mail/webhooks" />
      </PageHeader>

      {shown.length === 0 ? (
        <EmptyState
          icon={Webhook}
          title="No webhooks yet"
          description="Create one to have new mail, sends, bounces and drafts awaiting approval POSTed to your endpoint as they happen. Agents with the webhook_create permission can add their own."
        />
      ) : (
        <>
          {hooks.length > SCREEN_WEBHOOKS && (
            <p role="status" className="mb-2 text-sm text-muted-foreground">
              The first {SCREEN_WEBHOOKS} webhooks are shown; list the rest with GET /api/v1/owner/webhooks.
            </p>
          )}
          <WebhooksTable
            rows={shown.map((w) => ({
              id: w.id,
              url: w.url,
              eventTypes: w.eventTypes,
              inboxIds: w.inboxIds,
              mailboxAddresses: w.inboxIds.map((id) => address.get(id) ?? id),
              creator: w.keyId ? (creators.get(w.keyId) ?? { name: w.keyId, prefix: "", revoked: true }) : null,
              enabled: w.enabled,
              disabledReason: w.disabledReason,
              lastDeliveryAt: w.lastDeliveryAt?.toISOString() ?? null,
              lastAttempt: (() => {
                const l = last.get(w.id);
                return l ? { ok: l.ok, statusCode: l.statusCode, at: l.at.toISOString() } : null;
              })(),
              headerNames: Object.keys(openWebhookHeaders(w)),
              previousSecretUntil: w.previousSecretUntil && w.previousSecretUntil > new Date() ? w.previousSecretUntil.toISOString() : null,
            }))}
            eventTypes={MAIL_EVENT_TYPES}
            mailboxes={mailboxOptions}
            moreMailboxes={picker.more}
            {...actions}
          />
        </>
      )}

      <section id="deliveries" aria-labelledby="deliveries-title" className="mt-8 grid gap-3">
        <h2 id="deliveries-title" className="text-base font-semibold">
          Delivery log
        </h2>
        {perHour.length > 0 && (
          <div className="rounded-lg border p-3">
            <div className="mb-2 text-xs text-muted-foreground">Delivery attempts per hour, last 24 hours (UTC)</div>
            <AttemptsChart points={perHour} now={new Date().toISOString()} />
          </div>
        )}
        <AttemptFilters values={raw} webhooks={shown.map((w) => ({ id: w.id, url: w.url }))} eventTypes={MAIL_EVENT_TYPES} />
        {problem ? (
          <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {problem}{" "}
            <Link href="/mail/webhooks#deliveries" className="underline underline-offset-2">
              Reset
            </Link>
          </p>
        ) : page.items.length === 0 ? (
          <EmptyState
            title={filtered ? "No attempts match these filters" : "No deliveries yet"}
            description={
              filtered
                ? "Widen the time window or pick another webhook, outcome or event type."
                : "Each attempt to deliver an event shows here with its status, duration and the start of the answer. Use “Send test event” on a webhook to try one now."
            }
          />
        ) : (
          <>
            <AttemptsTable
              rows={page.items.map((r) => ({
                id: r.id,
                at: r.at.toISOString(),
                ok: r.ok,
                statusCode: r.statusCode,
                durationMs: r.durationMs,
                responseSnippet: r.responseSnippet,
                error: r.error,
                deliveryId: r.deliveryId,
                url: r.url,
                eventId: r.eventId,
                eventType: r.eventType,
                deliveryStatus: r.deliveryStatus,
              }))}
              resendAction={resendDeliveryAction}
            />
            <Pagination
              summary={`${plural(page.items.length, "attempt")}, newest first`}
              prevHref={parsed.data?.cursor ? webhooksHref(raw, { cursor: undefined }) : null}
              nextHref={page.nextPageToken ? webhooksHref(raw, { cursor: page.nextPageToken }) : null}
            />
          </>
        )}
      </section>
    </>
  );
}
