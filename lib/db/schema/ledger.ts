import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { projects } from "./projects";

/**
 * Append-only, hash-chained record per project. `hash` = SHA-256 over the canonical bytes computed in code
 * (lib/ledger/canonical.ts) including `prev_hash`; digests only, never content.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    ts: ts("ts").notNull(),
    /** Operation, e.g. `session.hello`, `key.create`. */
    op: text("op").notNull(),
    /** `key`, `owner` or `system`. */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    keyId: text("key_id"),
    agent: text("agent"),
    platform: text("platform"),
    /** `mcp`, `rest`, `dashboard`, `system`. */
    via: text("via").notNull(),
    /** ID of the touched object, e.g. `key_…`. */
    subject: text("subject"),
    inputDigest: text("input_digest"),
    outputDigest: text("output_digest"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.seq] }),
    index("ledger_op_idx").on(t.projectId, t.op, t.seq),
    index("ledger_agent_idx").on(t.projectId, t.agent, t.seq),
    index("ledger_platform_idx").on(t.projectId, t.platform, t.seq),
    index("ledger_subject_idx").on(t.projectId, t.subject, t.seq),
    index("ledger_ts_idx").on(t.projectId, t.ts),
  ],
);
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** The chain head per project: appends lock this row, so seq and prev_hash are assigned one at a time. */
export const ledgerHeads = pgTable("ledger_heads", {
  projectId: text("project_id").primaryKey().references(() => projects.id, { onDelete: "cascade" }),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});
