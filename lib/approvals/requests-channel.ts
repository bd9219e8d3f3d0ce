import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { requestStatuses } from "@/lib/db/schema/approvals";

const change = z.object({ project: z.string(), id: z.string(), status: z.enum(requestStatuses) });
export type RequestChange = z.infer<typeof change>;

/** Request changes: waiting agents, the dashboard's live list and channel senders. */
const requests = changeChannel("brynth_requests", change);

export const REQUESTS_CHANNEL = requests.name;
/** Delivered on commit of the deciding transaction, so a woken waiter always reads the decision. */
/** Told after `db`'s commit, so a woken waiter always reads the decision (change-channel.ts). */
export const notifyRequestChange = requests.notify;
export const onRequestChange = requests.subscribe;
