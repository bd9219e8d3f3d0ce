CREATE TABLE "intake_refusals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "intake_refusals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"source_id" text NOT NULL,
	"source" text NOT NULL,
	"reason" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_detail" text
);
--> statement-breakpoint
ALTER TABLE "intake_refusals" ADD CONSTRAINT "intake_refusals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intake_refusals_bucket_idx" ON "intake_refusals" USING btree ("project_id","source_id","reason","hour");--> statement-breakpoint
CREATE INDEX "intake_refusals_hour_idx" ON "intake_refusals" USING btree ("project_id","hour");