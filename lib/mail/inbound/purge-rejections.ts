import { lte, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailRejections } from "@/lib/db/schema/mail-events";

/** SMTP refusals are kept 30 days (the Rejected mail screen), then deleted. */
export async function purgeMailRejections(db: Executor, olderThanDays = 30): Promise<void> {
  await db.delete(mailRejections).where(lte(mailRejections.at, sql`now() - make_interval(days => ${olderThanDays})`));
}
