-- A rotated callback secret keeps signing beside the new one for 24 hours, as a mail webhook's does: receivers that
-- still hold the old one verify every callback meanwhile.
ALTER TABLE "approval_settings" ADD COLUMN "previous_callback_secret_enc" text;--> statement-breakpoint
ALTER TABLE "approval_settings" ADD COLUMN "previous_callback_secret_until" timestamp with time zone;
