/**
 * A separate instance process for the webhook crash and two-instance tests: a job runner with the webhook lane on
 * DATABASE_URL and, with EMIT_EVENTS=n, a loop writing n mail events (each fanning out in its own transaction) for
 * PROJECT_ID/MAILBOX_ID; LEASE_SECONDS sets the runner's claim lease. Prints `ready`, then `emitted <k>` after each commit, so a test can `kill -9` it mid-loop.
 */
import { getDb } from "@/lib/db/client";
import { JobRunner } from "@/lib/jobs/job-runner";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import { emitBareMailEvent } from "@/lib/testing/mail-events";

async function main() {
  const db = await getDb();
  const runner = new JobRunner(db, {
    concurrency: 4,
    pollMs: 200,
    lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: 8 }],
    // A short lease (renewed while alive) lets a test see a killed instance's claims taken again within seconds.
    ...(process.env.LEASE_SECONDS ? { leaseSeconds: Number(process.env.LEASE_SECONDS) } : {}),
    onError: (err) => console.error("[webhook-instance]", err),
  });
  await runner.start();
  process.on("SIGTERM", () => void runner.stop().then(() => process.exit(0)));
  console.log("ready");
  const count = Number(process.env.EMIT_EVENTS ?? 0);
  for (let k = 1; k <= count; k++) {
    await emitBareMailEvent(
      { projectId: process.env.PROJECT_ID ?? "", mailboxId: process.env.MAILBOX_ID ?? null },
      { from: "crash@example.org", subject: `Event ${k}`, labels: ["received"] },
    );
    console.log(`emitted ${k}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
