-- A draft awaiting the owner's approval carries the system label `pending_approval` (as a scheduled one carries
-- `scheduled`), so list_drafts can filter by it. Drafts held before this get it once.
UPDATE "mail_drafts" SET "labels" = "labels" || '["pending_approval"]'::jsonb
WHERE "send_status" = 'pending_approval' AND NOT "labels" ? 'pending_approval';
