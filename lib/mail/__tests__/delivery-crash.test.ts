import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { claimJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { runJob } from "@/lib/jobs/run-job";
import { deliverMessageJob } from "@/lib/mail/outbound/deliver-message-job";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { startDelivery } from "@/lib/mail/outbound/statements";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";

/**
 * An instance dies inside a relay SMTP transaction: the delivery is `sending`, and the relay may have taken the mail.
 * Its next run makes it `unknown` for the owner (deliver-message.ts). Found by helper-104: when that was the job's
 * last attempt, runJob failed the job without running the handler and onFailure marked the delivery `failed`, which
 * the owner would resend: the mail could go twice.
 */
const relay = envSettings("SMTP_RELAY_URL");
beforeAll(() => relay.set({ SMTP_RELAY_URL: "smtp://127.0.0.1:9" }));
afterAll(() => relay.restore());

async function crashMidSend(maxAttempts: number) {
  const db = await getDb();
  const { actor } = await seedProject({ name: `Crash ${maxAttempts}` });
  const sent = await db.transaction((tx) =>
    sendEmail(tx, { actor, to: ["someone@example.net"], subject: "crash", text: "t", attachments: [], reply_to_inbox: true }),
  );
  const messageId = sent.messages[0].message_id;
  const [queued] = await db.select().from(mailDeliveries).where(eq(mailDeliveries.messageId, messageId));
  await db.update(jobs).set({ maxAttempts }).where(eq(jobs.dedupeKey, queued.id));
  const [first] = await claimJobs(db, { limit: 1, kinds: [deliverMessageJob.kind] });
  // The first run takes the delivery to `sending`, then its instance dies: the lease runs out and is taken back.
  await startDelivery(db, first.projectId ?? "", queued.id);
  await db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, first.id));
  await reclaimExpiredJobs(db);
  const [second] = await claimJobs(db, { limit: 1, kinds: [deliverMessageJob.kind] });
  const outcome = await runJob(db, second);
  const [d] = await db.select().from(mailDeliveries).where(eq(mailDeliveries.id, queued.id));
  const [m] = await db.select().from(mailMessages).where(eq(mailMessages.id, messageId));
  return { route: queued.route, outcome, delivery: d.status, response: d.response, sendStatus: m.sendStatus };
}

describe("a relay delivery cut off mid-transaction", () => {
  it("is unknown for the owner with attempts left", async () => {
    expect(await crashMidSend(5)).toMatchObject({ route: "relay", outcome: "done", delivery: "unknown", sendStatus: "send_unknown" });
  });

  it("is unknown too when that was its last attempt, not failed", async () => {
    const r = await crashMidSend(1);
    expect(r).toMatchObject({ route: "relay", outcome: "failed", delivery: "unknown", sendStatus: "send_unknown" });
    expect(r.response).toMatch(/relay may have taken the message/);
  });
});
