import { z } from "zod";
import { mailboxStatuses, sendPolicies } from "@/lib/db/schema/mail";

/**
 * Ids and addresses are trimmed: an agent that copies ` support@x.com` was told that inbox does not exist (with the
 * spaces invisible in the message). No id or address holds whitespace at either end.
 */
export const inboxIdField = z.string().trim().min(1).max(320).describe("The inbox: its id (`mbx_…`, from list_inboxes) or its email address.");

export const metadataValue = z.union([z.string(), z.number(), z.boolean()]);

/** One inbox, as every inbox tool returns it (written in camelCase; callers receive snake_case). */
export const inboxOutput = z.object({
  inboxId: z.string().describe("`mbx_…`; every `inboxId` argument also accepts the address."),
  email: z.string().describe("The address, lower case."),
  displayName: z.string().nullable(),
  status: z.enum(mailboxStatuses).describe("`disabled`: mail to it is refused and it sends nothing."),
  sendPolicy: z.enum(sendPolicies).describe("Set by the owner only: `approval` holds every send for the owner, `read_only` refuses sends."),
  isDefault: z.boolean().describe("The project address (the email source's address)."),
  clientId: z.string().nullable(),
  metadata: z.record(z.string(), metadataValue),
  createdAt: z.string(),
  updatedAt: z.string(),
});
