DROP INDEX "ledger_seq_idx";--> statement-breakpoint
DROP INDEX "ledger_op_idx";--> statement-breakpoint
DROP INDEX "ledger_agent_idx";--> statement-breakpoint
DROP INDEX "ledger_platform_idx";--> statement-breakpoint
DROP INDEX "ledger_subject_idx";--> statement-breakpoint
DROP INDEX "ledger_ts_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_seq_idx" ON "ledger_entries" USING btree ("project_id","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "ledger_op_idx" ON "ledger_entries" USING btree ("project_id","op","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "ledger_agent_idx" ON "ledger_entries" USING btree ("project_id","agent","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "ledger_platform_idx" ON "ledger_entries" USING btree ("project_id","platform","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "ledger_subject_idx" ON "ledger_entries" USING btree ("project_id","subject","seq") WHERE seq is not null;--> statement-breakpoint
CREATE INDEX "ledger_ts_idx" ON "ledger_entries" USING btree ("project_id","ts") WHERE seq is not null;