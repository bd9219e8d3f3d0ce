CREATE TABLE "idempotency_keys" (
	"project_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"tool" text NOT NULL,
	"status_code" integer DEFAULT 200 NOT NULL,
	"response_text" text DEFAULT '' NOT NULL,
	"key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone DEFAULT now() + interval '24 hours' NOT NULL,
	CONSTRAINT "idempotency_keys_project_id_key_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
CREATE TABLE "mail_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"message_id" text NOT NULL,
	"route" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"accepted" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rejected" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"response" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_drafts" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"key_id" text,
	"agent" text,
	"client_id" text,
	"kind" text DEFAULT 'new' NOT NULL,
	"in_reply_to_message_id" text,
	"forward_of_message_id" text,
	"reply_all" boolean DEFAULT false NOT NULL,
	"thread_id" text,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bcc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"in_reply_to" text,
	"subject" text,
	"text" text,
	"html" text,
	"custom_headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"send_at" timestamp with time zone,
	"send_status" text,
	"send_reason" text,
	"approval_request_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_attachments" ALTER COLUMN "message_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_attachments" ADD COLUMN "draft_id" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "custom_headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "draft_id" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_deliveries" ADD CONSTRAINT "mail_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_deliveries" ADD CONSTRAINT "mail_deliveries_message_id_mail_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."mail_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_drafts" ADD CONSTRAINT "mail_drafts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_drafts" ADD CONSTRAINT "mail_drafts_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mail_deliveries_message_idx" ON "mail_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "mail_deliveries_open_idx" ON "mail_deliveries" USING btree ("project_id","status") WHERE status in ('unknown', 'failed');--> statement-breakpoint
CREATE INDEX "mail_drafts_mailbox_idx" ON "mail_drafts" USING btree ("mailbox_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mail_drafts_project_idx" ON "mail_drafts" USING btree ("project_id","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_drafts_client_idx" ON "mail_drafts" USING btree ("project_id","mailbox_id","client_id") WHERE client_id is not null;--> statement-breakpoint
CREATE INDEX "mail_drafts_request_idx" ON "mail_drafts" USING btree ("approval_request_id") WHERE approval_request_id is not null;--> statement-breakpoint
ALTER TABLE "mail_attachments" ADD CONSTRAINT "mail_attachments_draft_id_mail_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."mail_drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_attachments_draft_idx" ON "mail_attachments" USING btree ("draft_id") WHERE draft_id is not null;--> statement-breakpoint
ALTER TABLE "mail_attachments" ADD CONSTRAINT "mail_attachments_owner_check" CHECK ((message_id is null) <> (draft_id is null));