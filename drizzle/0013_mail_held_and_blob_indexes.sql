CREATE INDEX "mail_attachments_blob_idx" ON "mail_attachments" USING btree ("blob_key");--> statement-breakpoint
CREATE INDEX "mail_messages_held_idx" ON "mail_messages" USING btree ("project_id","msg_at","id") WHERE category <> 'normal';--> statement-breakpoint
CREATE INDEX "mail_messages_raw_blob_idx" ON "mail_messages" USING btree ("raw_blob_key") WHERE raw_blob_key is not null;