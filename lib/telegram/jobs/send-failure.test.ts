import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { approvalChannels, approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { jobs } from "@/lib/db/schema/jobs";
import { newId } from "@/lib/ids";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { telegramSendJob } from "@/lib/telegram/jobs/send-request-job";
import { seedProject } from "@/lib/testing/seed";

// Found by helper-104: a send that failed for good left its delivery without a reason, and the request's page (which
// shows `sent`, `failed: <reason>` or `sending`) said "sending" forever.
it("records why a Telegram send failed for good on its delivery, for the request's page", async () => {
  const db = await getDb();
  const { project } = await seedProject({ name: "Telegram send failure" });
  const channelId = newId("chn");
  await db
    .insert(approvalChannels)
    .values({ id: channelId, projectId: project.id, kind: "telegram", label: "mario", status: "active", telegramChatId: "5550001" });
  const requestId = newId("req");
  await db.insert(approvalRequests).values({
    id: requestId,
    projectId: project.id,
    kind: "approval",
    action: "pay",
    summary: "pay 5",
    expiresAt: new Date(Date.now() + 3_600_000),
    approvers: [channelId],
    actionHash: "h",
  } as typeof approvalRequests.$inferInsert);
  // No bot token is set for the project: the send cannot succeed, however often it is tried.
  const [delivery] = await db.insert(approvalDeliveries).values({ projectId: project.id, requestId, channelId, telegramChatId: "5550001" }).returning();
  await db.transaction((tx) => enqueueJob(tx, telegramSendJob, { deliveryId: delivery.id }, { projectId: project.id, dedupeKey: `tg-send:${delivery.id}` }));
  await drainJobs({ kinds: [telegramSendJob.kind] });
  const [job] = await db
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `tg-send:${delivery.id}`));
  expect(job.status).toBe("failed");
  const [after] = await db.select().from(approvalDeliveries).where(eq(approvalDeliveries.id, delivery.id));
  expect(after).toMatchObject({ sentAt: null, lastError: "Telegram is not set up for this project" });
});
