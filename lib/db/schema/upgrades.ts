import { pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "@/lib/db/columns";

/**
 * One-time data upgrades that need code rather than SQL (re-sealing secrets needs APP_SECRET). A row means the
 * upgrade is done for good and never runs again, which is what makes it safe: see upgrade-sealed-secrets.ts.
 * Instance-wide, so no project_id.
 */
export const dataUpgrades = pgTable("data_upgrades", {
  name: text("name").primaryKey(),
  doneAt: ts("done_at").notNull().defaultNow(),
});
