-- The claim takes the oldest due jobs of each project in turn (lib/jobs/statements.ts): it walks the pending rows by
-- kind and project, so a backlog of one kind or one project is never read past. The run_at index is no longer used.
DROP INDEX "jobs_due_idx";--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("kind",coalesce("project_id", ''),"run_at") WHERE status = 'pending';