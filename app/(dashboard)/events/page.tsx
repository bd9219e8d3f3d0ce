import type { Metadata } from "next";
import Link from "next/link";
import { Inbox } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { EventFilters } from "@/components/events/event-filters";
import { EventsChart } from "@/components/events/events-chart";
import { eventsHref, eventsSearch, FILTER_KEYS } from "@/components/events/events-search";
import { pageParams } from "@/lib/http/page-params";
import { EventsTable } from "@/components/events/events-table";
import { LiveRefresh } from "@/components/events/live-refresh";
import { RequeueAll } from "@/components/events/requeue-all";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { eventStatuses } from "@/lib/db/schema/events";
import { MAX_WINDOW_HOURS } from "@/lib/charts/time-window";
import { asksForBookkeeping } from "@/lib/events/bookkeeping";
import { countEventsByStatus } from "@/lib/events/count-events-by-status";
import { eventSourceNames, eventsPerHour } from "@/lib/events/events-per-hour";
import { listEvents } from "@/lib/events/list-events";
import { previousCursor } from "@/lib/events/previous-cursor";
import { listSources } from "@/lib/sources/list-sources";
import { cn, plural } from "@/lib/utils";
import { requeueEventsAction, requeueMatchingAction } from "./actions";

export const metadata: Metadata = { title: "Events" };

const PAGE = 50;
/** Done events are counted up to this many: past it the tab says "1,000+" (they pile up for ever). */
const DONE_SHOWN = 1000;
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function EventsPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const raw = pageParams(await searchParams);
  const parsed = eventsSearch.safeParse(raw);
  const db = await getDb();
  // Started now, read after the list's queries are on their way too: each page query waits on none of the others.
  const sourceNames = listSources(db, { actor }).then((rows) => rows.map((s) => s.name));

  const header = (sources: string[]) => (
    <PageHeader
      title="Events"
      description="Webhooks and Brynth's own events, as agents see them through inbox_list, inbox_wait and inbox_claim."
      actions={
        <LiveRefresh refresh={!raw.cursor} source={parsed.success ? parsed.data.source : undefined} type={parsed.success ? parsed.data.type : undefined} />
      }
    >
      <EventFilters values={raw} sources={sources} />
    </PageHeader>
  );
  if (!parsed.success) {
    return (
      <>
        {header(await sourceNames)}
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
        </p>
      </>
    );
  }

  const { status, source, type, cursor } = parsed.data;
  // Brynth's request.resolved bookkeeping stays out of the list, the counts and the chart unless asked for.
  const hideBookkeeping = parsed.data.bookkeeping !== "1" && !asksForBookkeeping(type);
  const filter = { status: status === "all" ? undefined : status, source, type, hideBookkeeping };
  const [sources, counts, page, perHour, windowSources] = await Promise.all([
    sourceNames,
    countEventsByStatus(db, { projectId: actor.projectId, source, type, hideBookkeeping, doneUpTo: DONE_SHOWN }),
    listEvents(db, { actor, ...filter, cursor, limit: PAGE, order: "desc", inlineLimit: 0 }),
    eventsPerHour(db, { projectId: actor.projectId, hours: MAX_WINDOW_HOURS, source, type, hideBookkeeping }),
    eventSourceNames(db, { projectId: actor.projectId, hours: MAX_WINDOW_HOURS }),
  ]);
  const first = page.events[0];
  const prev = cursor && first ? await previousCursor(db, { actor, ...filter, limit: PAGE, first }) : undefined;
  const filtered = FILTER_KEYS.some((k) => k !== "bookkeeping" && raw[k] && raw[k] !== "all");
  const doneCapped = counts.done > DONE_SHOWN;
  if (doneCapped) counts.done = DONE_SHOWN;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const shown = (s: (typeof eventStatuses)[number] | "all") =>
    `${(s === "all" ? total : counts[s]).toLocaleString("en-US")}${doneCapped && (s === "all" || s === "done") ? "+" : ""}`;

  return (
    <>
      {header(sources)}
      {perHour.length > 0 && (
        <div className="mb-4 rounded-lg border p-3">
          <EventsChart points={perHour} now={new Date().toISOString()} allSources={[...sources, ...windowSources]} />
        </div>
      )}
      <nav aria-label="Status" className="mb-4 flex flex-wrap items-center gap-1 border-b">
        {(["all", ...eventStatuses] as const).map((s) => (
          <Link
            key={s}
            href={eventsHref(raw, { status: s, cursor: undefined })}
            aria-current={status === s ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm capitalize",
              status === s ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {s} <span className="ml-1 text-xs tabular-nums text-muted-foreground">{shown(s)}</span>
          </Link>
        ))}
        <Link href="/events/refused" className="ml-auto px-3 py-2 text-xs text-muted-foreground hover:text-foreground">
          Refused deliveries
        </Link>
        {(status === "dead" || status === "failed") && counts[status] > 0 && (
          <div className="pb-1">
            <RequeueAll filter={{ status, source, type, hideBookkeeping }} total={counts[status]} requeueMatchingAction={requeueMatchingAction} />
          </div>
        )}
      </nav>
      {page.events.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title={filtered ? "No events match these filters" : "No events yet"}
          description={
            filtered
              ? "Change or reset the filters; new events appear here as they arrive."
              : "Add a source and paste its URL into a provider, or send a test event from the Sources screen."
          }
          action={
            <Button variant="outline" size="sm" asChild>
              <Link href={filtered ? "/events" : "/sources"}>{filtered ? "Reset filters" : "Go to Sources"}</Link>
            </Button>
          }
        />
      ) : (
        <>
          <EventsTable
            events={page.events.map((e) => ({
              id: e.id,
              source: e.source,
              type: e.type,
              status: e.status,
              receivedAt: e.receivedAt.toISOString(),
              attempts: e.attempts,
              payloadSize: e.payloadSize,
              lastError: e.lastError,
              trust: e.trust,
            }))}
            requeueAction={requeueEventsAction}
          />
          <Pagination
            className="mt-2"
            summary={`${plural(page.events.length, "event")}, newest first`}
            prevHref={prev === undefined ? null : eventsHref(raw, { cursor: prev ?? undefined })}
            nextHref={page.nextCursor ? eventsHref(raw, { cursor: page.nextCursor }) : null}
          />
        </>
      )}
    </>
  );
}
