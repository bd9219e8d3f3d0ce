import { z } from "zod";
import type { Executor } from "@/lib/db/client";
import { changeChannel } from "@/lib/db/change-channel";
import { requestStatuses } from "@/lib/db/schema/approvals";

const change = z.object({ project: z.string(), id: z.string(), status: z.enum(requestStatuses) });
export type RequestChange = z.infer<typeof change>;

/** Request changes: waiting agents, the dashboard's live list and channel senders. */
const requests = changeChannel("brynth_requests", change);

export const REQUESTS_CHANNEL = requests.name;
/** Delivered on commit of the deciding transaction, so a woken waiter always reads the decision. */
export const notifyRequestChange = (tx: Executor, c: RequestChange) => requests.notifyIn(tx, [c]);
/** After the commit, coalesced: requests the policy decided at once, whom nobody waits on. */
export const publishRequestChange = requests.publish;
export const onRequestChange = requests.subscribe;
