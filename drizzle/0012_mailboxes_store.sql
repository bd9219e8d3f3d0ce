CREATE TABLE "mail_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"project_id" text NOT NULL,
	"mailbox_id" text,
	"type" text NOT NULL,
	"message_id" text,
	"thread_id" text,
	"draft_id" text,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "mail_rejections" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"mailbox_id" text,
	"remote_ip" text,
	"helo" text,
	"mail_from" text,
	"rcpt" text NOT NULL,
	"smtp_code" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "mail_threads_mailbox_idx";--> statement-breakpoint
ALTER TABLE "mail_list_entries" ADD COLUMN "entry_type" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "in_reply_to_message_id" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "bcc" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "extracted_text" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "extracted_html" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "preview" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "category" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "msg_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(subject, '')), 'A') || setweight(to_tsvector('simple', coalesce(from_address, '') || ' ' || coalesce(from_name, '') || ' ' || "to"::text || ' ' || cc::text), 'B') || to_tsvector('simple', left(coalesce(text, ''), 100000))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "send_status" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "send_reason" text;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "base_subject" text;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "last_message_id" text;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "preview" text;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "senders" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "recipients" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "last_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "last_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "size_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "attachment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_threads" ADD COLUMN "visible_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_policy" text DEFAULT 'direct' NOT NULL;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "created_by_key" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_events" ADD CONSTRAINT "mail_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_rejections" ADD CONSTRAINT "mail_rejections_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_events_project_idx" ON "mail_events" USING btree ("project_id","seq");--> statement-breakpoint
CREATE INDEX "mail_events_created_idx" ON "mail_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_rejections_project_idx" ON "mail_rejections" USING btree ("project_id","at","id");--> statement-breakpoint
CREATE INDEX "mail_messages_mailbox_at_idx" ON "mail_messages" USING btree ("mailbox_id","msg_at","id");--> statement-breakpoint
CREATE INDEX "mail_messages_project_at_idx" ON "mail_messages" USING btree ("project_id","msg_at","id");--> statement-breakpoint
CREATE INDEX "mail_messages_search_idx" ON "mail_messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "mail_messages_labels_idx" ON "mail_messages" USING gin ("labels");--> statement-breakpoint
CREATE INDEX "mail_messages_references_idx" ON "mail_messages" USING gin ("references");--> statement-breakpoint
CREATE INDEX "mail_threads_visible_idx" ON "mail_threads" USING btree ("mailbox_id","visible_at","id") WHERE visible_at is not null;--> statement-breakpoint
CREATE INDEX "mail_threads_project_visible_idx" ON "mail_threads" USING btree ("project_id","visible_at","id") WHERE visible_at is not null;--> statement-breakpoint
CREATE INDEX "mail_threads_labels_idx" ON "mail_threads" USING gin ("labels");--> statement-breakpoint
CREATE INDEX "mail_threads_mailbox_idx" ON "mail_threads" USING btree ("mailbox_id","last_message_at","id");--> statement-breakpoint
-- Rows from before the mailbox tools: they sort by when they arrived or left, and show in default lists.
UPDATE "mail_messages" SET "msg_at" = coalesce("received_at", "sent_at", "created_at"), "category" = CASE WHEN "blocked" THEN 'blocked' ELSE 'normal' END;--> statement-breakpoint
UPDATE "mail_threads" t SET "visible_at" = (SELECT max(m."msg_at") FROM "mail_messages" m WHERE m."thread_id" = t."id" AND m."category" = 'normal');
