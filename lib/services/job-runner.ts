import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { callbackJob } from "@/lib/approvals/callbacks/callback-job";
import { type JobLane, JobRunner } from "@/lib/jobs/job-runner";
import { webhookDeliveryJob } from "@/lib/mail/webhooks/webhook-delivery-job";
import type { Service } from "@/lib/services/start-services";

const g = globalThis as { __brynthJobRunner?: JobRunner };

/**
 * The kinds that POST to URLs agents chose (mail webhooks, approval callbacks) run in a lane of their own (design
 * D11): an endpoint may take its whole 10 s deadline, and an agent can point any number of them at one that never
 * answers. In the shared lane, four such callbacks held every slot outbound mail needs, in every project.
 */
export const jobLanes = (): JobLane[] => [{ kinds: [webhookDeliveryJob.kind, callbackJob.kind], concurrency: env().JOBS_WEBHOOK_CONCURRENCY }];

/**
 * The process's one job runner (on globalThis: Next bundles routes apart from server.ts), with `jobLanes`; every
 * other kind shares JOBS_CONCURRENCY slots.
 */
export const jobRunner: Service = {
  name: "job runner",
  async start() {
    if (!g.__brynthJobRunner) {
      const runner = new JobRunner(await getDb(), {
        concurrency: env().JOBS_CONCURRENCY,
        lanes: jobLanes(),
        pollMs: env().JOBS_POLL_MS,
        stopGraceMs: env().JOBS_STOP_GRACE_SECONDS * 1000,
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
