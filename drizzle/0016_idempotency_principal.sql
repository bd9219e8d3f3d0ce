ALTER TABLE "idempotency_keys" ADD COLUMN "principal" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "principal" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_project_id_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_project_id_principal_key_pk" PRIMARY KEY("project_id","principal","key");
