import { z } from "zod";
import { quarantineCategories } from "@/lib/mail/quarantine/quarantine-categories";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

/** The Quarantine screen's URL: mailbox, category and the page token, so a view can be shared and Back works. */
export const quarantineSearch = z.object({
  inbox: text(64),
  category: z.enum([...quarantineCategories, "all"]).default("all"),
  cursor: text(600),
});

/** The current filters plus changes (undefined drops a key); a filter change starts again at the first page. */
export function quarantineHref(raw: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  for (const key of ["inbox", "category", "cursor"]) {
    const value = key in changes ? changes[key] : raw[key];
    if (value && !(key === "category" && value === "all")) q.set(key, value);
  }
  return q.size ? `/mail/quarantine?${q}` : "/mail/quarantine";
}
