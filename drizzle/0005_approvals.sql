CREATE TABLE "approval_channels" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"address" text,
	"status" text NOT NULL,
	"telegram_chat_id" text,
	"verify_token_hash" text,
	"verify_expires_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"created_by" text,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_channels_verify_token_hash_unique" UNIQUE("verify_token_hash")
);
--> statement-breakpoint
CREATE TABLE "approval_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "approval_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"request_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"notice" boolean DEFAULT false NOT NULL,
	"token_hash" text,
	"used_at" timestamp with time zone,
	"telegram_chat_id" text,
	"telegram_message_id" bigint,
	"draft_comment" text,
	"sent_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_deliveries_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"kind" text NOT NULL,
	"action" text,
	"summary" text NOT NULL,
	"details" text,
	"risk" text,
	"amount" double precision,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decision" text,
	"comment" text,
	"decided_by" text,
	"decided_channel_id" text,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"approvers" jsonb NOT NULL,
	"rule" text,
	"policy_version" integer DEFAULT 0 NOT NULL,
	"state_ref" text,
	"callback_url" text,
	"key_id" text,
	"agent" text,
	"platform" text,
	"payload" json,
	"action_hash" text NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_settings" (
	"project_id" text PRIMARY KEY NOT NULL,
	"callback_secret_enc" text,
	"telegram_token_enc" text,
	"telegram_bot_id" text,
	"telegram_username" text,
	"telegram_webhook_secret_enc" text,
	"telegram_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_versions" (
	"project_id" text NOT NULL,
	"version" integer NOT NULL,
	"rules" json NOT NULL,
	"note" text,
	"proposed_by" text,
	"approved_by" text NOT NULL,
	"approved_via" text NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_versions_project_id_version_pk" PRIMARY KEY("project_id","version")
);
--> statement-breakpoint
ALTER TABLE "approval_channels" ADD CONSTRAINT "approval_channels_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_deliveries" ADD CONSTRAINT "approval_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_deliveries" ADD CONSTRAINT "approval_deliveries_request_id_approval_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."approval_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_deliveries" ADD CONSTRAINT "approval_deliveries_channel_id_approval_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."approval_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_settings" ADD CONSTRAINT "approval_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_channels_owner_idx" ON "approval_channels" USING btree ("project_id") WHERE kind = 'owner';--> statement-breakpoint
CREATE INDEX "approval_channels_project_idx" ON "approval_channels" USING btree ("project_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_channels_chat_idx" ON "approval_channels" USING btree ("project_id","telegram_chat_id") WHERE status <> 'removed';--> statement-breakpoint
CREATE UNIQUE INDEX "approval_deliveries_request_channel_idx" ON "approval_deliveries" USING btree ("request_id","channel_id");--> statement-breakpoint
CREATE INDEX "approval_deliveries_unsent_idx" ON "approval_deliveries" USING btree ("created_at") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "approval_requests_project_idx" ON "approval_requests" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "approval_requests_pending_idx" ON "approval_requests" USING btree ("project_id","created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "approval_requests_expiry_idx" ON "approval_requests" USING btree ("expires_at") WHERE status = 'pending';