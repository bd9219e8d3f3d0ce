DROP INDEX "events_status_idx";--> statement-breakpoint
CREATE INDEX "events_status_idx" ON "events" USING btree ("project_id","status","received_at","id") WHERE status in ('done', 'dead');