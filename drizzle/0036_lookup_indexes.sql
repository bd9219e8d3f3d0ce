-- Lookups that deletions cascade through, and counts the dashboard makes on every load: without them, revoking a key
-- or deleting a project, a mailbox or a message read whole tables (sessions, list entries, messages) once per
-- deleted row, the Overview counted all of a project's outbound mail and the refusals purge read every refusal.
CREATE INDEX "mcp_sessions_key_idx" ON "mcp_sessions" USING btree ("key_id") WHERE "mcp_sessions"."key_id" is not null;--> statement-breakpoint
CREATE INDEX "mcp_sessions_grant_idx" ON "mcp_sessions" USING btree ("grant_id") WHERE "mcp_sessions"."grant_id" is not null;--> statement-breakpoint
CREATE INDEX "mcp_sessions_project_idx" ON "mcp_sessions" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "mail_rejections_at_idx" ON "mail_rejections" USING btree ("at");--> statement-breakpoint
CREATE INDEX "mail_drafts_pending_idx" ON "mail_drafts" USING btree ("project_id") WHERE send_status = 'pending_approval';--> statement-breakpoint
CREATE INDEX "mail_list_entries_mailbox_idx" ON "mail_list_entries" USING btree ("mailbox_id") WHERE mailbox_id is not null;--> statement-breakpoint
CREATE INDEX "mail_messages_outbound_trouble_idx" ON "mail_messages" USING btree ("project_id","status") WHERE direction = 'outbound' and status in ('failed', 'unknown');--> statement-breakpoint
CREATE INDEX "mail_messages_in_reply_to_idx" ON "mail_messages" USING btree ("in_reply_to_message_id") WHERE in_reply_to_message_id is not null;
