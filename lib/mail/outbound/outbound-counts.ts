import { and, count, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages, type MessageStatus } from "@/lib/db/schema/mail";

/**
 * Outbound messages per status, for the Outbound mail screen's tabs; `only` counts just those statuses. The Overview
 * asks only for failed and unknown, which a partial index holds (mail_messages_outbound_trouble_idx): counting every
 * status read all of a project's outbound mail on each load (0.5 s at 200,000 messages).
 */
export async function outboundCounts(db: Executor, projectId: string, only?: readonly MessageStatus[]): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: mailMessages.status, n: count() })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.direction, "outbound"), only ? inArray(mailMessages.status, [...only]) : undefined))
    .groupBy(mailMessages.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
