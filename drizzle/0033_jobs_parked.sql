-- Pending jobs not yet due wait outside the claim's index (lib/db/schema/jobs.ts, parked), so a claim never probes the
-- projects that only have a scheduled send or a retry's backoff queued; the claim moves them back in when due.
DROP INDEX "jobs_claim_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "parked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "jobs" SET "parked" = true WHERE status = 'pending' AND run_at > now();--> statement-breakpoint
CREATE INDEX "jobs_parked_idx" ON "jobs" USING btree ("run_at") WHERE status = 'pending' and parked;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("kind",coalesce("project_id", ''),"run_at") WHERE status = 'pending' and not parked;
