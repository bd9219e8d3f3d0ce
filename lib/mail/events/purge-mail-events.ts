import { lte, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailEvents } from "@/lib/db/schema/mail-events";

/** Mail events are kept 7 days (design §2.4): long enough to replay a stream or retry a webhook, then deleted. */
export async function purgeMailEvents(db: Executor, olderThanDays = 7): Promise<void> {
  await db.delete(mailEvents).where(lte(mailEvents.createdAt, sql`now() - make_interval(days => ${olderThanDays})`));
}
