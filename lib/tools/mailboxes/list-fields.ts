import { z } from "zod";
import { isoTimestamp, pageLimit } from "@/lib/tools/fields";
import { pageBinding } from "@/lib/tools/mailboxes/list-page";
import { PAGE_TOKEN_MAX, readPageToken } from "@/lib/tools/page-token";

/** Spec "Conventions": 10 a page by default; the spec sets no maximum, AgentMail's 100 is ours (design C6). */
export const limitField = pageLimit(100, 10);

export const pageTokenField = z
  .string()
  .min(1)
  .max(PAGE_TOKEN_MAX)
  .optional()
  .describe("`next_page_token` of the previous page, unchanged, with the same other arguments. Omit it for the first page.");

export const ascendingField = z.boolean().default(false).describe("Oldest first. Default false: newest first.");

export const beforeField = isoTimestamp.optional().describe("Only items before this time (exclusive), ISO 8601, e.g. 2026-09-01T12:00:00Z.");
export const afterField = isoTimestamp.optional().describe("Only items after this time (exclusive), ISO 8601, e.g. 2026-09-01T12:00:00Z.");

/**
 * A list tool's input: its own arguments plus `limit` and `pageToken`, strict. The token is checked against the
 * other arguments while parsing, so a forged or foreign one is a schema issue like any other, and the
 * validation_error names the field as the caller spelled it (`pageToken` over MCP, `page_token` over REST).
 */
export function listInput<S extends z.ZodRawShape>(tool: string, shape: S) {
  return z
    .object({ ...shape, limit: limitField, pageToken: pageTokenField })
    .strict()
    .superRefine(
      (input, ctx) => {
        const token = (input as { pageToken?: string }).pageToken;
        if (token === undefined) return;
        const read = readPageToken(token, pageBinding(tool, input));
        if ("problem" in read) ctx.addIssue({ code: "custom", path: ["pageToken"], message: read.problem, input: token });
      },
      // Arguments that failed their own checks are no filter to compare the token with: those issues are reported
      // alone, and the token is judged on the corrected call.
      { when: (payload) => payload.issues.length === 0 },
    );
}
