CREATE TABLE "event_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "event_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"key_id" text,
	"agent" text,
	"claimed_at" timestamp with time zone NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"reason" text,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"source_id" text,
	"source" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"trust" text NOT NULL,
	"payload" json,
	"raw" "bytea",
	"content_type" text,
	"payload_size" integer NOT NULL,
	"headers" jsonb NOT NULL,
	"dedupe_key" text,
	"received_at" timestamp with time zone NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_token" text,
	"lease_expires_at" timestamp with time zone,
	"claimed_by" text,
	"claimed_agent" text,
	"claimed_at" timestamp with time zone,
	"result" jsonb,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"verification" text NOT NULL,
	"secret_enc" text,
	"previous_secret_enc" text,
	"previous_secret_expires_at" timestamp with time zone,
	"signature_header" text,
	"id_header" text,
	"type_field" text,
	"token_hash" text,
	"address" text,
	"created_by" text,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sources_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "event_attempts" ADD CONSTRAINT "event_attempts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_attempts" ADD CONSTRAINT "event_attempts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_attempts_event_idx" ON "event_attempts" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "events_live_idx" ON "events" USING btree ("project_id","received_at","id") WHERE status in ('pending', 'failed', 'claimed');--> statement-breakpoint
CREATE INDEX "events_status_idx" ON "events" USING btree ("project_id","status","received_at","id");--> statement-breakpoint
CREATE INDEX "events_received_idx" ON "events" USING btree ("project_id","received_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedupe_idx" ON "events" USING btree ("project_id","source","dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sources_active_name_idx" ON "sources" USING btree ("project_id","name") WHERE removed_at is null;