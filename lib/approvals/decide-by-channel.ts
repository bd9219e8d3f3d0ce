import type { Executor } from "@/lib/db/client";
import type { ApprovalChannel } from "@/lib/db/schema/approvals";
import { channelActor } from "@/lib/channels/channel-actor";
import { channelDecider } from "@/lib/channels/channel-view";
import { decideRequest } from "@/lib/approvals/decide-request";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";

/** A decision made away from the dashboard (email link, Telegram button), signed `channel:<label>`. */
export function decideByChannel(tx: Executor, opts: { channel: ApprovalChannel; requestId: string; verdict: PersonVerdict }) {
  return decideRequest(tx, {
    actor: channelActor(opts.channel),
    requestId: opts.requestId,
    verdict: opts.verdict,
    channel: opts.channel,
    decidedBy: channelDecider(opts.channel),
  });
}
