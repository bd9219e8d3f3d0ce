import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { projects } from "./projects";

/**
 * Append-only, hash-chained record per project. `hash` = SHA-256 over the canonical bytes computed in code
 * (lib/ledger/canonical.ts) including `prev_hash`; digests only, never content.
 *
 * An entry commits with its mutation but without `seq`/`prev_hash`/`hash`; the sealer (lib/ledger/seal-entries.ts)
 * chains committed entries in commit-visible order right after. Chaining inside each mutation's transaction would
 * hold the head lock across every commit's fsync and serialise all writers of a project (measured: 10× slower).
 * Entries with no mutation to commit with (read calls) go in chained, in shared INSERTs, when the head is free
 * (append-batcher.ts).
 */
const sealed = sql`seq is not null`;

export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Position in the project's chain; null until sealed. */
    seq: bigint("seq", { mode: "number" }),
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
    prevHash: text("prev_hash"),
    hash: text("hash"),
  },
  // Readers see sealed entries only, so every index but the sealer's covers sealed rows only: an append then
  // touches two indexes (the primary key and `unsealed`), and sealing adds the row to the others once.
  (t) => [
    uniqueIndex("ledger_seq_idx").on(t.projectId, t.seq).where(sealed),
    index("ledger_unsealed_idx").on(t.projectId, t.id).where(sql`seq is null`),
    index("ledger_op_idx").on(t.projectId, t.op, t.seq).where(sealed),
    index("ledger_agent_idx").on(t.projectId, t.agent, t.seq).where(sealed),
    index("ledger_platform_idx").on(t.projectId, t.platform, t.seq).where(sealed),
    index("ledger_subject_idx").on(t.projectId, t.subject, t.seq).where(sealed),
    index("ledger_ts_idx").on(t.projectId, t.ts).where(sealed),
  ],
);
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** The chain head per project: appends lock this row, so seq and prev_hash are assigned one at a time. */
export const ledgerHeads = pgTable("ledger_heads", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});
