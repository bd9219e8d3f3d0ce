CREATE TABLE "blob_erasures" (
	"prefix" text PRIMARY KEY NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"final_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blob_erasures_due_idx" ON "blob_erasures" USING btree ("not_before");