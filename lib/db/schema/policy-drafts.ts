import { integer, json, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "../columns";
import { projects } from "./projects";

/**
 * The owner's draft of the next policy: saved, simulated beside the policy in force, never in force until applied
 * (which makes it a version and deletes it). One per project; only a draft that parses is stored.
 */
export const policyDrafts = pgTable("policy_drafts", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** `json`, not jsonb, as policy_versions.rules: the rules keep the key order they were written in. */
  rules: json("rules").notNull(),
  /** Kept with the version when the draft is applied. */
  note: text("note"),
  /** The version in force when the draft was last saved, so the screen can say when another version came since. */
  baseVersion: integer("base_version").notNull(),
  updatedBy: text("updated_by").notNull(),
  ...timestamps,
});
export type PolicyDraft = typeof policyDrafts.$inferSelect;
