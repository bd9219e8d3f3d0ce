import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { listen, notify } from "@/lib/db/notify";
import { requestStatuses } from "@/lib/db/schema/approvals";

/** LISTEN/NOTIFY channel for request changes: waiting agents, the dashboard's live list and channel senders. */
export const REQUESTS_CHANNEL = "brynth_requests";

const change = z.object({ project: z.string(), id: z.string(), status: z.enum(requestStatuses) });
export type RequestChange = z.infer<typeof change>;

/** Inside the deciding transaction: delivered on commit, so a woken waiter always reads the decision. */
export function notifyRequestChange(tx: Executor, c: RequestChange): Promise<void> {
  return notify(tx, REQUESTS_CHANNEL, JSON.stringify(c));
}

export function onRequestChange(handler: (c: RequestChange) => void): Promise<() => void> {
  return listen(REQUESTS_CHANNEL, (payload) => {
    let parsed;
    try {
      parsed = change.safeParse(JSON.parse(payload));
    } catch {
      return;
    }
    if (parsed.success) handler(parsed.data);
  });
}
