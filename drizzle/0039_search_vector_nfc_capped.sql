-- The search vector in NFC (mail from macOS is often decomposed, and a query typed composed missed it), with the
-- participants cut to 20,000 characters: a tsvector holds at most 1 MB, and a message with a 1.5 MB To header could
-- not be stored at all. Dropping the column drops its GIN index, made again here as drizzle/0024 made it.
ALTER TABLE "mail_messages" drop column "search";--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', normalize(coalesce(subject, ''), NFC)), 'A') || setweight(to_tsvector('simple', normalize(left(coalesce(from_address, '') || ' ' || coalesce(from_name, '') || ' ' || "to"::text || ' ' || cc::text, 20000), NFC)), 'B') || to_tsvector('simple', normalize(left(coalesce(text, ''), 100000), NFC))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_messages_mailbox_search_idx" ON "mail_messages" USING gin ("mailbox_id","search");
