-- btree_gin lets one GIN index hold mailbox_id beside the search vector (lib/db/schema/mail.ts says why). It is a
-- trusted extension: any role that may create objects in the database can create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "mail_messages_search_idx";--> statement-breakpoint
CREATE INDEX "mail_messages_mailbox_search_idx" ON "mail_messages" USING gin ("mailbox_id","search");
