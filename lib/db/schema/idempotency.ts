import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "../columns";
import { projects } from "./projects";

/**
 * One row per idempotency key a caller used (mailboxes spec `idempotencyKey`, REST `Idempotency-Key`): the hash of
 * the call it answered and the result it gave, replayed byte for byte to a retry. Written in the call's own
 * transaction, so a concurrent retry waits on the row and then replays, and a call that failed leaves no key behind.
 * Keys belong to the credential that used them (`principal`: the API key, or the owner): MCP and REST share them,
 * but another key of the project never sees a result it was not given.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** `key:<api key id>` or `owner:<owner id>`. */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the tool name and its parsed arguments (the key itself aside): the same key with another body is a CONFLICT. */
    requestHash: text("request_hash").notNull(),
    tool: text("tool").notNull(),
    /** 200, or the error's HTTP status for a result that committed as an error (approval_required). */
    statusCode: integer("status_code").notNull().default(200),
    /** The output JSON (snake_case), or the error body. */
    responseText: text("response_text").notNull().default(""),
    /** The first call's ledger subject (a message id), so its retries' entries name it too. */
    subject: text("subject"),
    keyId: text("key_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** 24 hours after the call completed; an expired key may be used again. */
    expiresAt: ts("expires_at").notNull().default(sql`now() + interval '24 hours'`),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.principal, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
