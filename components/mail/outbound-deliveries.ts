import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailDeliveries } from "@/lib/db/schema/mail-send";

export type DeliveryView = {
  id: string;
  route: "local" | "relay";
  recipients: string[];
  status: string;
  attempts: number;
  response: string | null;
  lastError: string | null;
  rejected: Array<{ recipient: string; response: string }>;
};

/**
 * The Outbound tab's per-recipient results: each message's deliveries (one per local mailbox, one relay SMTP
 * transaction for the outside recipients) with their answer and the recipients the relay refused. Messages sent
 * before deliveries existed have none; the table shows the message's own status for them.
 */
export async function deliveriesOf(db: Executor, projectId: string, messageIds: string[]): Promise<Map<string, DeliveryView[]>> {
  const out = new Map<string, DeliveryView[]>();
  if (messageIds.length === 0) return out;
  const rows = await db
    .select()
    .from(mailDeliveries)
    .where(and(eq(mailDeliveries.projectId, projectId), inArray(mailDeliveries.messageId, messageIds)))
    .orderBy(asc(mailDeliveries.route), asc(mailDeliveries.id));
  for (const d of rows) {
    const view: DeliveryView = {
      id: d.id,
      route: d.route,
      recipients: d.recipients,
      status: d.status,
      attempts: d.attempts,
      response: d.response,
      lastError: d.lastError,
      rejected: d.rejected,
    };
    out.set(d.messageId, [...(out.get(d.messageId) ?? []), view]);
  }
  return out;
}
