import { z } from "zod";

/** The filter arguments the thread and message lists and searches share (design §1.4, §2.7). */

export const labelsFilterField = z
  .array(z.string().min(1).max(64))
  .max(20)
  .optional()
  .describe('Only items carrying every one of these labels (case-insensitive), e.g. ["unread"].');

/** A case-insensitive substring filter: every value must match. */
export const substringsField = (what: string) =>
  z.array(z.string().min(1).max(256)).max(20).optional().describe(`Only items whose ${what} contains every one of these strings (case-insensitive).`);

export const includeFlagFields = {
  includeSpam: z.boolean().optional().describe("Also spam (hidden by default)."),
  includeBlocked: z.boolean().optional().describe("Also mail from blocked senders (hidden by default)."),
  includeUnauthenticated: z.boolean().optional().describe("Also mail that failed SPF/DKIM/DMARC (hidden by default)."),
  includeTrash: z.boolean().optional().describe("Also trashed mail (hidden by default)."),
};

/** Both search tools: web-search syntax (`"exact phrase"`, `or`, `-word`), which never fails on odd input. */
export const searchQueryField = z
  .string()
  .min(1)
  .max(256)
  .describe('Words to find in subject, participants and body: all must occur; `"a phrase"`, `a or b` and `-word` work. 1–256 characters.');
