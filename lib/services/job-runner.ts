import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { JobRunner } from "@/lib/jobs/job-runner";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import type { Service } from "@/lib/services/start-services";

const g = globalThis as { __brynthJobRunner?: JobRunner };

/**
 * The process's one job runner (on globalThis: Next bundles routes apart from server.ts). Webhook deliveries run in a
 * lane of their own (design D11); every other kind shares JOBS_CONCURRENCY slots.
 */
export const jobRunner: Service = {
  name: "job runner",
  async start() {
    if (!g.__brynthJobRunner) {
      const runner = new JobRunner(await getDb(), {
        concurrency: env().JOBS_CONCURRENCY,
        lanes: [{ kinds: [webhookDeliveryJob.kind], concurrency: env().JOBS_WEBHOOK_CONCURRENCY }],
        pollMs: env().JOBS_POLL_MS,
        onError: (err) => console.error("[brynth] job runner:", err),
      });
      await runner.start();
      g.__brynthJobRunner = runner;
    }
    const runner = g.__brynthJobRunner;
    return async () => {
      await runner.stop();
      if (g.__brynthJobRunner === runner) g.__brynthJobRunner = undefined;
    };
  },
};
