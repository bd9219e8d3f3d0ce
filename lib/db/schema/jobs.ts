import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { projects } from "./projects";

/**
 * `pending` waits for `run_at` (while `parked`, outside the claim's index: see below); `running` is held until
 * `locked_until` (a crashed runner's job is taken back after that); `done` and `failed` (attempts used up, or a
 * permanent error) are final and leave the hot indexes.
 */
export const jobStatuses = ["pending", "running", "done", "failed"] as const;
export type JobStatus = (typeof jobStatuses)[number];

/** Background work (outbound mail, callback deliveries, expiries): see lib/jobs/job-runner.ts. */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    /** Null for instance-wide work that belongs to no project. */
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** Names a kind registered in lib/jobs/job-kinds.ts. */
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status").$type<JobStatus>().notNull().default("pending"),
    runAt: ts("run_at").notNull().defaultNow(),
    /**
     * A pending job written with a `run_at` still to come (a scheduled send, a retry's backoff) waits outside
     * jobs_claim_idx, so the claim, which probes each (kind, project) there, never probes projects with nothing due;
     * the claim moves the parked jobs whose time came back in (lib/jobs/statements.ts, claimDueJobs).
     */
    parked: boolean("parked").notNull().default(false),
    /** Claims so far (each claim counts, so a job that crashes its runner still runs out of attempts). */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    lastError: text("last_error"),
    /** While `running`: the claim's lease. */
    lockedUntil: ts("locked_until"),
    /** Enqueueing twice with one key gives one job (per project and kind). */
    dedupeKey: text("dedupe_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    // The claim (lib/jobs/statements.ts) walks the pending rows by kind and project (a null project is '': a group
    // of its own) and reads each group's oldest due rows, so a backlog of one kind or project is never scanned past;
    // finished jobs are not in this index however many pile up.
    index("jobs_claim_idx").on(t.kind, sql`coalesce(${t.projectId}, '')`, t.runAt).where(sql`status = 'pending' and not parked`),
    index("jobs_parked_idx").on(t.runAt).where(sql`status = 'pending' and parked`),
    index("jobs_running_idx").on(t.lockedUntil).where(sql`status = 'running'`),
    index("jobs_finished_idx").on(t.finishedAt).where(sql`status in ('done', 'failed')`),
    uniqueIndex("jobs_dedupe_idx").on(t.kind, t.dedupeKey),
  ],
);
export type JobRow = typeof jobs.$inferSelect;
