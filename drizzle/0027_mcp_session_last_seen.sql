-- MCP sessions record when they were last used (at most hourly), so sessions idle for a week, and ended ones after a
-- day, are purged instead of kept forever. Sessions open before this count from now.
ALTER TABLE "mcp_sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "mcp_sessions_last_seen_idx" ON "mcp_sessions" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "mcp_sessions_ended_idx" ON "mcp_sessions" USING btree ("ended_at") WHERE "mcp_sessions"."ended_at" is not null;