import type { Db } from "@/lib/db/client";
import { withoutStatementTimeout } from "@/lib/db/statement-timeout";
import { env } from "@/lib/env";
import { CLAIM_LEASE_S, claimJobs, extendLeases, type LaneShares, purgeFinishedJobs, reclaimExpiredJobs } from "@/lib/jobs/claim-jobs";
import { jobWakeups } from "@/lib/jobs/enqueue-job";
import { FinishGroup } from "@/lib/jobs/finish-group";
import { runJob } from "@/lib/jobs/run-job";
import { purgeMailEvents } from "@/lib/mail/events/purge-mail-events";
import { purgeExpiredKeys } from "@/lib/tools/idempotency/statements";
import { purgeMailRejections } from "@/lib/mail/inbound/purge-rejections";
import { purgeMcpSessions } from "@/lib/mcp/purge-sessions";

const MAINTENANCE_MS = 30_000;

/**
 * The smallest lane that keeps a slot free for other projects. Below it a lone project (the usual single-project
 * instance, JOBS_CONCURRENCY's 4 mail slots) would lose a large part of its lane; there another project's job waits
 * for the next slot that frees, which it is given first.
 */
const KEEP_FREE_FROM = 8;

/** A share of the runner's slots kept for some kinds (design D11): they never take the other kinds' slots, nor these theirs. */
export interface JobLane {
  kinds: readonly string[];
  concurrency: number;
}

interface Lane {
  /** Claimed by this lane: the listed kinds, or (the default lane) every kind no other lane lists. */
  kinds?: readonly string[];
  exceptKinds?: readonly string[];
  concurrency: number;
  running: Set<Promise<unknown>>;
  /** A project's share of the slots, and the slots kept free for others past it. */
  shares: LaneShares;
  /** Claim at the next round: a job of its kinds was told, a slot came free, the poll came, or its last batch was full. */
  due: boolean;
}

/**
 * One process's runner. Jobs run in lanes: each dedicated lane (`lanes`, e.g. webhook deliveries) runs up to its own
 * number of its kinds at a time, and the default lane up to `concurrency` of every other kind, so four endpoints
 * that take 10 s each fill only the webhook lane while outbound mail keeps its slots. Each lane claims as many due
 * jobs as it has free slots; the runner sleeps until a NOTIFY (a job was enqueued anywhere: only the lanes of the
 * woken kinds claim) or the poll interval (every lane claims), and reclaims expired leases now and then. `stop()`
 * stops claiming, lets running handlers finish for up to `stopGraceMs`, then aborts their signals and waits for them
 * to settle.
 *
 * Within a lane, projects take turns (claimDueJobs): a project running fewer of the lane's jobs (on any instance)
 * comes first, so another project's due job is taken the moment a slot is free, however many older jobs one project
 * has queued. A project holds up to `projectSharePercent` of a lane's slots (at least one) and more only while one
 * slot stays free (in a lane of KEEP_FREE_FROM slots or more): alone it uses all but that slot, and when its jobs hang
 * (endpoints that wait out their 10 s deadline), another project's job still starts at once, and takes the slots it
 * frees first.
 */
export class JobRunner {
  private lanes: Lane[];
  private stopped = false;
  private wake: (() => void) | null = null;
  /** A wake-up that came while the loop was busy: the next sleep returns at once. */
  private woken = false;
  private abort = new AbortController();
  private loop: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;
  /** The claims this runner holds (id → attempts), whose leases the heartbeat renews. */
  private held = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** Successes of the kinds that opted in commit together (finish-group.ts). */
  private finishes: FinishGroup | undefined;

  constructor(
    private db: Db,
    private opts: {
      concurrency: number;
      pollMs: number;
      lanes?: readonly JobLane[];
      onError?: (err: unknown) => void;
      /**
       * How long a claim holds a job without news from this runner (default CLAIM_LEASE_S). The runner renews its
       * running jobs' leases every third of it, and looks for expired ones at least that often, so a job of an
       * instance killed mid-run is taken again about one lease after the kill.
       */
      leaseSeconds?: number;
      /** A lane's slots one project holds before the others come first (JOBS_PROJECT_SHARE_PERCENT by default). */
      projectSharePercent?: number;
      /** Default true: successes of the kinds that opted in commit together (finish-group.ts); false for A/B runs. */
      groupFinishes?: boolean;
      /**
       * How long `stop()` lets running handlers finish before it aborts them (default 0: at once). An aborted one is
       * retried, and one whose work was done but not yet recorded (a webhook the endpoint had received, a message the
       * relay had taken) is then done twice: the service waits JOBS_STOP_GRACE_SECONDS.
       */
      stopGraceMs?: number;
    },
  ) {
    this.finishes = opts.groupFinishes === false ? undefined : new FinishGroup(db);
    const dedicated = (opts.lanes ?? []).filter((l) => l.kinds.length > 0);
    const taken = dedicated.flatMap((l) => l.kinds);
    const percent = opts.projectSharePercent ?? env().JOBS_PROJECT_SHARE_PERCENT;
    const lane = (concurrency: number, kinds: Pick<Lane, "kinds" | "exceptKinds">): Lane => {
      const share = Math.max(1, Math.floor((concurrency * percent) / 100));
      const shares = { share, reserve: share < concurrency && concurrency >= KEEP_FREE_FROM ? 1 : 0 };
      return { ...kinds, concurrency, running: new Set(), shares, due: true };
    };
    this.lanes = [...dedicated.map((l) => lane(l.concurrency, { kinds: l.kinds })), lane(opts.concurrency, { exceptKinds: taken })];
  }

  async start(): Promise<void> {
    this.unlisten = await jobWakeups.subscribe((kind) => this.poke(kind));
    this.heartbeat = setInterval(
      () => {
        const claims = [...this.held].map(([id, attempts]) => ({ id, attempts }));
        extendLeases(this.db, claims, this.lease).catch((err) => this.opts.onError?.(err));
      },
      (this.lease * 1000) / 3,
    );
    this.heartbeat.unref();
    this.loop = this.run();
  }

  private get lease(): number {
    return this.opts.leaseSeconds ?? CLAIM_LEASE_S;
  }

  /** Jobs running now, over every lane. */
  get busy(): number {
    return this.lanes.reduce((n, l) => n + l.running.size, 0);
  }

  private laneOf(kind: string): Lane {
    return this.lanes.find((l) => l.kinds?.includes(kind)) ?? this.lanes[this.lanes.length - 1];
  }

  private async run(): Promise<void> {
    // On the monotonic clock: with Date.now(), a wall clock stepped back (NTP, a VM restored) made the differences
    // negative, and the instance stopped taking back expired leases and purging for as long (found by helper-104).
    let lastMaintenance = Number.NEGATIVE_INFINITY;
    let lastReclaim = Number.NEGATIVE_INFINITY;
    while (!this.stopped) {
      try {
        if (performance.now() - lastReclaim > Math.min(MAINTENANCE_MS, this.lease * 1000)) {
          lastReclaim = performance.now();
          await reclaimExpiredJobs(this.db);
        }
        if (performance.now() - lastMaintenance > MAINTENANCE_MS) {
          lastMaintenance = performance.now();
          // Retention of finished jobs, the mail outbox (7 days), the SMTP refusal log (30 days), MCP sessions (a
          // week idle, a day ended) and idempotency keys (24 hours after their call). Each runs without the pool's
          // statement timeout: after a long stop the first pass may delete more than 30 s can, and cut, it would
          // start over every time and never finish.
          for (const purge of [purgeFinishedJobs, purgeMailEvents, purgeMailRejections, purgeMcpSessions, purgeExpiredKeys]) {
            await withoutStatementTimeout(this.db, async (tx) => void (await purge(tx)));
          }
        }
        for (const lane of this.lanes) {
          const free = lane.concurrency - lane.running.size;
          if (free <= 0 || !lane.due) continue;
          lane.due = false;
          const claimed = await claimJobs(this.db, {
            limit: free,
            kinds: lane.kinds,
            exceptKinds: lane.exceptKinds,
            leaseSeconds: this.lease,
            shares: lane.shares,
          });
          for (const job of claimed) {
            this.held.set(job.id, job.attempts);
            const p = runJob(this.db, job, this.abort.signal, this.finishes)
              .catch((err) => this.opts.onError?.(err))
              .finally(() => {
                if (this.held.get(job.id) === job.attempts) this.held.delete(job.id);
                lane.running.delete(p);
                lane.due = true;
                this.poke();
              });
            lane.running.add(p);
          }
          // A full batch suggests more are due: claim again at once.
          if (claimed.length > 0 && claimed.length === free) lane.due = true;
        }
      } catch (err) {
        // (The database is away, say.) Every lane tries again after the poll interval, not in a tight loop.
        this.opts.onError?.(err);
        for (const lane of this.lanes) lane.due = false;
      }
      if (this.lanes.some((l) => l.due && l.running.size < l.concurrency)) continue;
      const full = this.lanes.every((l) => l.running.size >= l.concurrency);
      await this.sleep(full ? 60_000 : this.opts.pollMs);
    }
  }

  /** `kind`: a job of that kind became due (NOTIFY), so its lane claims; none: a slot came free, or a stop. */
  private poke(kind?: string) {
    if (kind !== undefined) this.laneOf(kind).due = true;
    this.woken = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // The poll: every lane looks for jobs that became due by their time (retries), which no NOTIFY tells.
      const timer = setTimeout(() => {
        for (const lane of this.lanes) lane.due = true;
        done();
      }, ms);
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
    // The heartbeat keeps renewing the leases of the jobs still running meanwhile.
    const running = Promise.allSettled(this.lanes.flatMap((l) => [...l.running]));
    const grace = this.opts.stopGraceMs ?? 0;
    if (grace > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((r) => (timer = setTimeout(r, grace)))]);
      clearTimeout(timer);
    }
    this.abort.abort();
    await running;
    if (this.heartbeat) clearInterval(this.heartbeat);
  }
}
