CREATE TABLE "remote_access" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"public_url" text,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "remote_access_single_row" CHECK ("remote_access"."id")
);
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "scopes" jsonb;--> statement-breakpoint
ALTER TABLE "remote_access" ADD CONSTRAINT "remote_access_updated_by_owners_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."owners"("id") ON DELETE set null ON UPDATE no action;