import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps with millisecond precision in JS; stored as timestamptz. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const timestamps = {
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
};
