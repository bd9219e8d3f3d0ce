DROP INDEX "mail_events_project_idx";--> statement-breakpoint
ALTER TABLE "mail_events" ADD COLUMN "xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_events_order_idx" ON "mail_events" USING btree ("xid","seq");--> statement-breakpoint
CREATE INDEX "mail_events_project_order_idx" ON "mail_events" USING btree ("project_id","xid","seq");