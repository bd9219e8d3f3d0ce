import { z } from "zod";
import type { MailListEntry } from "@/lib/db/schema/mail";

export const directionField = z
  .enum(["receive", "send", "reply"])
  .describe("`receive`: senders of new mail; `send`: recipients of outgoing mail; `reply`: senders of replies to threads this inbox answered.");
export const listTypeField = z.enum(["allow", "block"]).describe("`block` refuses what matches; a non-empty `allow` list lets only what matches through.");
export const listInboxIdField = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .optional()
  .describe("The inbox whose list this is (id or address). Omit it for the project's global list, which needs a key without a mailbox restriction.");

/** One entry as every list tool returns it (camelCase here; callers receive snake_case). */
export const listEntryOutput = z.object({
  inboxId: z.string().nullable().describe("The inbox whose list holds it; null for the global list."),
  direction: directionField,
  type: listTypeField,
  entry: z.string().describe("The lower-case address or domain."),
  entryType: z.enum(["email", "domain"]).describe("`domain` also matches its subdomains."),
  reason: z.string().nullable(),
  createdAt: z.string(),
});

export const listEntryView = (row: MailListEntry) => ({
  inboxId: row.mailboxId,
  direction: row.direction,
  type: row.type,
  entry: row.entry,
  entryType: row.entryType,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});
