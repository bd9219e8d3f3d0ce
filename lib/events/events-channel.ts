import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { listen, notify } from "@/lib/db/notify";
import { eventStatuses } from "@/lib/db/schema/events";

/** One LISTEN/NOTIFY channel for every event change; listeners filter by project. */
export const EVENTS_CHANNEL = "brynth_events";

const change = z.object({
  project: z.string(),
  id: z.string(),
  source: z.string(),
  type: z.string(),
  /** The status the change left the event in: `pending` means claimable now, so waiters wake up. */
  status: z.enum(eventStatuses),
});
export type EventChange = z.infer<typeof change>;

/** Delivered when the caller's transaction commits, so a woken listener always finds the row. */
export function notifyEventChange(tx: Executor, c: EventChange): Promise<void> {
  return notify(tx, EVENTS_CHANNEL, JSON.stringify(c));
}

export function onEventChange(handler: (c: EventChange) => void): Promise<() => void> {
  return listen(EVENTS_CHANNEL, (payload) => {
    let parsed;
    try {
      parsed = change.safeParse(JSON.parse(payload));
    } catch {
      return;
    }
    if (parsed.success) handler(parsed.data);
  });
}
