-- Brynth's own mail that carries a private link (an approval's decide link, a channel's verification link) keeps
-- its body as sent sealed in sealed_body_enc; text and html, which agents read, withhold the link. Mail sent before
-- this gets its links withheld the same way, and forgets its composed copy (the raw download would show them).
ALTER TABLE "mail_messages" ADD COLUMN "sealed_body_enc" text;--> statement-breakpoint
UPDATE "mail_messages" SET
  "text" = regexp_replace("text", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g'),
  "html" = regexp_replace("html", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g'),
  "extracted_text" = regexp_replace("extracted_text", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g'),
  "extracted_html" = regexp_replace("extracted_html", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g'),
  "preview" = regexp_replace("preview", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g'),
  "raw_blob_key" = NULL
WHERE "direction" = 'outbound' AND "agent" = 'brynth'
  AND ("text" ~ '/(decide|verify)/[0-9A-Za-z]{16,}' OR "html" ~ '/(decide|verify)/[0-9A-Za-z]{16,}');
--> statement-breakpoint
UPDATE "mail_threads" SET
  "preview" = regexp_replace("preview", 'https?://[^\s"''<>]*/(decide|verify)/[0-9A-Za-z]+', '[link withheld: sent to the recipient only]', 'g')
WHERE "preview" ~ '/(decide|verify)/[0-9A-Za-z]{16,}';
