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

/** Event changes of every project (listeners filter by project): inbox_wait, the Events screen, /api/v1/stream. */
const events = changeChannel("brynth_events", change);

export const EVENTS_CHANNEL = events.name;
/** Delivered on commit of `tx`: for changes an agent may be waiting on (a webhook's new event). */
export const notifyEventChanges = events.notifyIn;
/** After the caller's own commit, coalesced with everything published in the same moment. */
export const publishEventChange = events.publish;
/**
 * For claims and acks inside a tool call's transaction, when only watchers care: the dashboard re-reads and
 * waiters merely re-check, so a notice a moment early, or for a change that rolled back, does no harm.
 */
export const announceEventChange = (c: EventChange) => events.announce(c);
export const onEventChange = events.subscribe;
