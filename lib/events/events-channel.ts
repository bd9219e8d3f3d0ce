import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { eventStatuses } from "@/lib/db/schema/events";

const change = z.object({
  project: z.string(),
  id: z.string(),
  source: z.string(),
  type: z.string(),
  /** The status the change left the event in: `pending` means claimable now, so waiters wake up. */
  status: z.enum(eventStatuses),
});
export type EventChange = z.infer<typeof change>;

/**
 * Event changes of every project (listeners filter by project): inbox_wait, the Events screen, /api/v1/stream.
 * A change that leaves an event claimable wakes waiters at once; claims, acks and dead letters only interest
 * watchers (the dashboard re-reads, waiters merely re-check), so those are gathered over 50 ms into one NOTIFY.
 */
const events = changeChannel("brynth_events", change, { gatherMs: (c) => (c.status === "pending" ? 0 : 50) });

export const EVENTS_CHANNEL = events.name;
/** Told after `db`'s commit (change-channel.ts). */
export const notifyEventChange = events.notify;
export const onEventChange = events.subscribe;
