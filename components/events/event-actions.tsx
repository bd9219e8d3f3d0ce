import Link from "next/link";
import { BookText, ListFilter } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { RequeueButton } from "@/components/events/requeue-button";
import type { ActionResult } from "@/lib/auth/owner-action";
import type { EventStatus } from "@/lib/db/schema/events";

type Props = {
  event: { id: string; status: EventStatus; source: string; type: string };
  requeueAction: (input: { eventIds: string[] }) => Promise<ActionResult<{ requeued: number }>>;
};

/**
 * The actions that fit the event's state, and only those: a dead or failed event can be requeued; every event can
 * be traced in the ledger (its claims, acks and nacks have it as subject) and compared with its siblings, the events of
 * the same source and type in the same state.
 */
export function EventActions({ event, requeueAction }: Props) {
  const siblings = new URLSearchParams({ status: event.status, source: event.source, type: event.type });
  if (event.source === "brynth" && event.type === "request.resolved") siblings.set("bookkeeping", "1");
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="event-actions">
      {(event.status === "dead" || event.status === "failed") && <RequeueButton eventId={event.id} requeueAction={requeueAction} />}
      <Button size="sm" variant="outline" asChild>
        <Link href={`/ledger?subject=${encodeURIComponent(event.id)}`}>
          <BookText aria-hidden />
          Ledger entries
        </Link>
      </Button>
      <Button size="sm" variant="outline" asChild>
        <Link href={`/events?${siblings}`}>
          <ListFilter aria-hidden />
          Similar {event.status} events
        </Link>
      </Button>
      <CopyButton value={event.id} label="Copy event ID" showLabel variant="outline" />
    </div>
  );
}
