import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "../columns";

/**
 * Blob-store prefixes to empty (a deleted project's `projects/<id>`), written in the transaction that removes the
 * rows pointing into them and emptied by the janitor after commit (lib/blob/sweep-erasures.ts). No foreign key: the
 * project is gone by then. A row stays until its last pass has succeeded, so a store that fails is tried again.
 */
export const blobErasures = pgTable(
  "blob_erasures",
  {
    /** Every object under `<prefix>/` goes: the store's keys are `projects/<project id>/…`. */
    prefix: text("prefix").primaryKey(),
    /** The next pass runs once this has passed. */
    notBefore: ts("not_before").notNull(),
    /**
     * A second pass then, for bytes that land after the first: a presigned upload URL still valid, a message's blobs
     * written just before its transaction failed. The row goes after the pass that starts at or past this time.
     */
    finalAt: ts("final_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("blob_erasures_due_idx").on(t.notBefore)],
);
export type BlobErasure = typeof blobErasures.$inferSelect;
