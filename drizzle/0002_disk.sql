CREATE TABLE "disk_attachments" (
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"name" text NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disk_attachments_project_id_event_id_name_pk" PRIMARY KEY("project_id","event_id","name")
);
--> statement-breakpoint
CREATE TABLE "disk_files" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disk_links" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"file_id" text,
	"event_id" text,
	"attachment_name" text,
	"path" text NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"key_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"downloads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disk_trash" (
	"blob_key" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disk_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disk_usage" (
	"project_id" text PRIMARY KEY NOT NULL,
	"keys" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"download_month" text DEFAULT '' NOT NULL,
	"download_bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kv_entries" (
	"project_id" text NOT NULL,
	"key" text COLLATE "C" NOT NULL,
	"value" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"version" integer NOT NULL,
	"note" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kv_entries_project_id_key_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
ALTER TABLE "disk_attachments" ADD CONSTRAINT "disk_attachments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disk_files" ADD CONSTRAINT "disk_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disk_links" ADD CONSTRAINT "disk_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disk_uploads" ADD CONSTRAINT "disk_uploads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disk_usage" ADD CONSTRAINT "disk_usage_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kv_entries" ADD CONSTRAINT "kv_entries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disk_files_path_idx" ON "disk_files" USING btree ("project_id","path");--> statement-breakpoint
CREATE INDEX "disk_links_project_idx" ON "disk_links" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "disk_links_file_idx" ON "disk_links" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "disk_trash_due_idx" ON "disk_trash" USING btree ("not_before");--> statement-breakpoint
CREATE INDEX "disk_uploads_path_idx" ON "disk_uploads" USING btree ("project_id","path");--> statement-breakpoint
CREATE INDEX "disk_uploads_expires_idx" ON "disk_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "kv_entries_expires_idx" ON "kv_entries" USING btree ("expires_at");