import type { Actor } from "@/lib/actor";
import { countPendingRequests } from "@/lib/approvals/list-requests";
import type { Executor } from "@/lib/db/client";
import { countEventsByStatus } from "@/lib/events/count-events-by-status";
import { countUnusedKeys } from "@/lib/keys/list-keys";
import { outboundCounts } from "@/lib/mail/outbound/outbound-counts";
import { countRefusals } from "@/lib/sources/intake-refusals";

const DAY = 24 * 3600_000;
export const UNUSED_KEY_DAYS = 30;

export type Attention = {
  pendingApprovals: number;
  eventsPending: number;
  eventsDead: number;
  outboundFailed: number;
  outboundUnknown: number;
  refusedDeliveries: number;
  unusedKeys: number;
};

/**
 * What needs the owner now, as the Overview shows it. Each number is counted by the same query (and the same
 * filters) as the screen its link opens, so the number and the rows there agree: events without Brynth's
 * request.resolved bookkeeping, as the Events screen shows them by default; outbound mail by status, as the
 * Outbound tabs count it; refusals from the same hour buckets the Refused deliveries screen lists.
 */
export async function needsAttention(db: Executor, opts: { actor: Pick<Actor, "projectId">; now?: Date }): Promise<Attention> {
  const now = opts.now ?? new Date();
  const projectId = opts.actor.projectId;
  const [pendingApprovals, events, outbound, refusedDeliveries, unusedKeys] = await Promise.all([
    countPendingRequests(db, projectId),
    // Done events are not shown here: counting them only up to one is a single index probe.
    countEventsByStatus(db, { projectId, hideBookkeeping: true, doneUpTo: 0 }),
    outboundCounts(db, projectId, ["failed", "unknown"]),
    countRefusals(db, { projectId, since: new Date(now.getTime() - DAY) }),
    countUnusedKeys(db, { actor: opts.actor, since: new Date(now.getTime() - UNUSED_KEY_DAYS * DAY) }),
  ]);
  return {
    pendingApprovals,
    eventsPending: events.pending,
    eventsDead: events.dead,
    outboundFailed: outbound.failed ?? 0,
    outboundUnknown: outbound.unknown ?? 0,
    refusedDeliveries,
    unusedKeys,
  };
}
