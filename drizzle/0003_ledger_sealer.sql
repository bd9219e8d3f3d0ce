ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_project_id_seq_pk";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "seq" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "id" bigint PRIMARY KEY NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_seq_idx" ON "ledger_entries" USING btree ("project_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_unsealed_idx" ON "ledger_entries" USING btree ("project_id","id") WHERE seq is null;