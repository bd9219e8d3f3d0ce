-- A sent draft's clientId stays on its message: create_draft retried after the send answers CONFLICT instead of making
-- (and scheduling) a second draft. An idempotency key keeps its first call's ledger subject for its retries' entries.
ALTER TABLE "idempotency_keys" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "draft_client_id" text;--> statement-breakpoint
CREATE INDEX "mail_messages_draft_client_idx" ON "mail_messages" USING btree ("project_id","mailbox_id","draft_client_id") WHERE draft_client_id is not null;