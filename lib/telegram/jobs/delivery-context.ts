import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";

/** A delivery with its request and channel. */
export async function loadDelivery(db: Executor, deliveryId: number) {
  const [row] = await db
    .select({ delivery: approvalDeliveries, request: approvalRequests, channel: approvalChannels })
    .from(approvalDeliveries)
    .innerJoin(approvalRequests, eq(approvalRequests.id, approvalDeliveries.requestId))
    .innerJoin(approvalChannels, eq(approvalChannels.id, approvalDeliveries.channelId))
    .where(eq(approvalDeliveries.id, deliveryId));
  return row ?? null;
}

/** A request's Telegram messages that still show buttons. */
export function openTelegramMessages(db: Executor, requestId: string) {
  return db
    .select()
    .from(approvalDeliveries)
    .where(
      and(
        eq(approvalDeliveries.requestId, requestId),
        isNotNull(approvalDeliveries.telegramMessageId),
        isNull(approvalDeliveries.closedAt),
        eq(approvalDeliveries.notice, false),
      ),
    );
}
