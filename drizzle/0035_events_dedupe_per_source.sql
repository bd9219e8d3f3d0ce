DROP INDEX "events_dedupe_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedupe_idx" ON "events" USING btree ("project_id","source",coalesce(source_id, ''),"dedupe_key");