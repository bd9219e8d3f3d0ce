import { and, count, eq, like } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { jobs } from "@/lib/db/schema/jobs";
import { mailAttachments, mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries, mailDrafts } from "@/lib/db/schema/mail-send";

/** Everything a draft call may write in a project: a refused call must leave all of it as it was. */
export async function draftWrites(projectId: string) {
  const db = await getDb();
  const n = async (q: Promise<Array<{ n: number }>>) => (await q)[0].n;
  const drafts = await db.select().from(mailDrafts).where(eq(mailDrafts.projectId, projectId)).orderBy(mailDrafts.id);
  return {
    drafts,
    attachments: await n(db.select({ n: count() }).from(mailAttachments).where(eq(mailAttachments.projectId, projectId))),
    messages: await n(db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.projectId, projectId))),
    deliveries: await n(db.select({ n: count() }).from(mailDeliveries).where(eq(mailDeliveries.projectId, projectId))),
    requests: await n(db.select({ n: count() }).from(approvalRequests).where(eq(approvalRequests.projectId, projectId))),
    jobs: await n(
      db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.projectId, projectId), eq(jobs.kind, "mail.send_draft"))),
    ),
  };
}

/** Makes a draft's schedule jobs due now (all of them, or the one for `version`), as if its send_at had come. */
export async function dueNow(draftId: string, version?: number): Promise<number> {
  const db = await getDb();
  const rows = await db
    .update(jobs)
    .set({ runAt: new Date(Date.now() - 1000) })
    .where(
      and(eq(jobs.kind, "mail.send_draft"), version === undefined ? like(jobs.dedupeKey, `drf:${draftId}:%`) : eq(jobs.dedupeKey, `drf:${draftId}:${version}`)),
    )
    .returning({ id: jobs.id });
  return rows.length;
}

/** An ISO time this many hours ahead. */
export const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
