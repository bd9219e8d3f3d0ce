import { count, eq, sum } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailAttachments, mailMessages, mailQuota, mailThreads } from "@/lib/db/schema/mail";
import { mailDeliveries, mailDrafts } from "@/lib/db/schema/mail-send";

/**
 * What a send writes, counted for one project: a refused send (design §4 B, "a refused send writes nothing and
 * queues nothing") must leave every number as it was.
 */
export async function sendWrites(projectId: string) {
  const db = await getDb();
  const n = async (table: typeof mailMessages | typeof mailThreads | typeof mailAttachments | typeof mailDeliveries | typeof mailDrafts | typeof jobs) =>
    (await db.select({ n: count() }).from(table).where(eq(table.projectId, projectId)))[0].n;
  const [quota] = await db
    .select({ used: sum(mailQuota.used) })
    .from(mailQuota)
    .where(eq(mailQuota.projectId, projectId));
  return {
    messages: await n(mailMessages),
    threads: await n(mailThreads),
    attachments: await n(mailAttachments),
    deliveries: await n(mailDeliveries),
    drafts: await n(mailDrafts),
    jobs: await n(jobs),
    quota: Number(quota?.used ?? 0),
  };
}
