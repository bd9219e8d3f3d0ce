import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { ensureOwnerChannel } from "@/lib/channels/ensure-owner-channel";
import { channelDecider } from "@/lib/channels/channel-view";
import { decideRequest } from "@/lib/approvals/decide-request";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";

/** The owner decides in the dashboard (or owner REST): through the owner channel, signed `owner:<email>`. */
export async function decideAsOwner(tx: Executor, opts: { actor: Actor; requestId: string; verdict: PersonVerdict }) {
  const channel = await ensureOwnerChannel(tx, opts.actor.projectId);
  return decideRequest(tx, {
    actor: opts.actor,
    requestId: opts.requestId,
    verdict: opts.verdict,
    channel,
    decidedBy: channelDecider(channel, opts.actor.agent),
  });
}
