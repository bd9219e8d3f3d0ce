import type { messageCategories } from "@/lib/db/schema/mail";

/** The categories inbound categorisation keeps out of default lists: what the Quarantine screen shows. */
export const quarantineCategories = ["spam", "blocked", "unauthenticated"] as const satisfies readonly Exclude<(typeof messageCategories)[number], "normal">[];
export type QuarantineCategory = (typeof quarantineCategories)[number];
