import type { Db } from "@/lib/db/client";
import { claimJobs, purgeFinishedJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { jobWakeups } from "@/lib/jobs/enqueue-job";
import { runJob } from "@/lib/jobs/run-job";
import { purgeMailEvents } from "@/lib/mail/events/purge-mail-events";
import { purgeExpiredKeys } from "@/lib/tools/idempotency/statements";
import { purgeMailRejections } from "@/lib/mail/inbound/purge-rejections";

const MAINTENANCE_MS = 30_000;

/**
 * One process's runner: up to `concurrency` jobs at a time. It claims as many due jobs as it has free slots, sleeps
 * until a NOTIFY (a job was enqueued anywhere) or the poll interval, and reclaims expired leases now and then.
 * `stop()` stops claiming, aborts running handlers' signals and waits for them to settle.
 */
export class JobRunner {
  private running = new Set<Promise<unknown>>();
  private stopped = false;
  private wake: (() => void) | null = null;
  /** A wake-up that came while the loop was busy: the next sleep returns at once. */
  private woken = false;
  private abort = new AbortController();
  private loop: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;

  constructor(
    private db: Db,
    private opts: { concurrency: number; pollMs: number; onError?: (err: unknown) => void },
  ) {}

  async start(): Promise<void> {
    this.unlisten = await jobWakeups.subscribe(() => this.poke());
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    let lastMaintenance = 0;
    while (!this.stopped) {
      try {
        if (Date.now() - lastMaintenance > MAINTENANCE_MS) {
          lastMaintenance = Date.now();
          await reclaimExpiredJobs(this.db);
          await purgeFinishedJobs(this.db);
          // Retention of the mail outbox (7 days), the SMTP refusal log (30 days) and idempotency keys, beside the jobs'.
          await purgeMailEvents(this.db);
          await purgeMailRejections(this.db);
          // Idempotency keys expire 24 hours after their call.
          await purgeExpiredKeys(this.db);
        }
        const free = this.opts.concurrency - this.running.size;
        const claimed = free > 0 ? await claimJobs(this.db, { limit: free }) : [];
        for (const job of claimed) {
          const p = runJob(this.db, job, this.abort.signal)
            .catch((err) => this.opts.onError?.(err))
            .finally(() => {
              this.running.delete(p);
              this.poke();
            });
          this.running.add(p);
        }
        // A full batch suggests more are due: claim again at once when a slot is free.
        if (claimed.length > 0 && claimed.length === free) continue;
      } catch (err) {
        this.opts.onError?.(err);
      }
      await this.sleep(this.running.size >= this.opts.concurrency ? 60_000 : this.opts.pollMs);
    }
  }

  private poke() {
    this.woken = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        self.woken = false;
        resolve();
      }
      this.wake = done;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.poke();
    await this.loop;
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }
}
