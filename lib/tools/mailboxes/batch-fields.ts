import { z } from "zod";
import { batchActions } from "@/lib/mail/batch/batch-item";
import type { Scope } from "@/lib/keys/scopes";

export const MAX_BATCH_IDS = 100;

export const batchActionField = z
  .enum(batchActions)
  .describe("`get` reads each item, `label` applies addLabels/removeLabels, `trash` moves to the trash, `delete` erases for good.");

export const batchIdsField = (what: string) => z.array(z.string().min(1).max(998)).min(1).max(MAX_BATCH_IDS).describe(`1 to ${MAX_BATCH_IDS} ${what}.`);

/** Reading needs message_read (the tool's scope); changing needs the scope of the single-item tool. */
export const batchScopes = (input: { action: string }): Scope[] =>
  input.action === "label" ? ["message_update"] : input.action === "trash" || input.action === "delete" ? ["message_delete"] : [];

export const batchResult = <T extends z.ZodType>(item: T) =>
  z.object({
    id: z.string().describe("The id as given."),
    ok: z.boolean(),
    error: z.object({ code: z.string(), message: z.string() }).optional().describe("Why this id failed; the others are unaffected."),
    item: item.optional().describe("`get`: the item."),
    labels: z.array(z.string()).optional().describe("`label`, `trash`: the labels now set."),
    deleted: z.boolean().optional().describe("`delete`: false when it was already gone."),
  });
