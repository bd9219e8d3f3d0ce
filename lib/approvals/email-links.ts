import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { sha256Hex } from "@/lib/crypto/hash";
import { AppError } from "@/lib/errors";
import { decideByChannel } from "@/lib/approvals/decide-by-channel";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";

const TOKEN = /^[A-Za-z0-9]{20,64}$/;

async function findLink(db: Executor, token: string) {
  if (!TOKEN.test(token)) return null;
  const [row] = await db
    .select({ delivery: approvalDeliveries, request: approvalRequests, channel: approvalChannels })
    .from(approvalDeliveries)
    .innerJoin(approvalRequests, eq(approvalRequests.id, approvalDeliveries.requestId))
    .innerJoin(approvalChannels, eq(approvalChannels.id, approvalDeliveries.channelId))
    .where(eq(approvalDeliveries.tokenHash, sha256Hex(token)));
  return row ?? null;
}

export type LinkState = "open" | "used" | "decided" | "expired" | "invalid";

/**
 * What an emailed link shows, read-only (a GET never changes anything: mail scanners follow links). A link is bound
 * to its channel: once the channel is removed, or the request moved away from it, the link is invalid.
 */
export async function emailLinkView(db: Executor, token: string) {
  const found = await findLink(db, token);
  if (!found) return { state: "invalid" as LinkState, request: null, channel: null };
  const { delivery, request, channel } = found;
  let state: LinkState = "open";
  if (channel.status !== "active" || !request.approvers.includes(channel.id)) state = "invalid";
  else if (delivery.usedAt) state = "used";
  else if (request.status !== "pending") state = "decided";
  else if (request.expiresAt.getTime() <= Date.now()) state = "expired";
  return { state, request, channel };
}

/**
 * The decision posted from the link's page. The link is spent in the same transaction as the decision (a replay
 * finds it used); the decision itself refuses a decided or expired request, which rolls the spending back.
 */
export async function decideByEmailLink(tx: Executor, opts: { token: string; verdict: PersonVerdict }) {
  const found = await findLink(tx, opts.token);
  const refused = (message: string) => new AppError("forbidden", message, { fix: "Decide from the dashboard, or from a newer email." });
  if (found?.channel.status !== "active") throw refused("This link is not valid.");
  const [spent] = await tx
    .update(approvalDeliveries)
    .set({ usedAt: new Date() })
    .where(and(eq(approvalDeliveries.id, found.delivery.id), isNull(approvalDeliveries.usedAt)))
    .returning({ id: approvalDeliveries.id });
  if (!spent) throw refused("This link was used already.");
  const request = await decideByChannel(tx, { channel: found.channel, requestId: found.request.id, verdict: opts.verdict });
  return { request, channel: found.channel };
}
