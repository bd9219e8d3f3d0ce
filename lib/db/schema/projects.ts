import { index, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "../columns";
import { owners } from "./owners";

/** The tenant: every key, ledger entry, source, event, file and mailbox belongs to one project. */
export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id),
    ...timestamps,
  },
  (t) => [index("projects_owner_idx").on(t.ownerId)],
);
export type Project = typeof projects.$inferSelect;
