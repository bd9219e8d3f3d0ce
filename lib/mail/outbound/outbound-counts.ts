import { and, count, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";

/** Outbound messages per status, for the Outbound mail screen's tabs. */
export async function outboundCounts(db: Executor, projectId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: mailMessages.status, n: count() })
    .from(mailMessages)
    .where(and(eq(mailMessages.projectId, projectId), eq(mailMessages.direction, "outbound")))
    .groupBy(mailMessages.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
