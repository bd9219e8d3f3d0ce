import { z } from "zod";
import { PATH_MAX_BYTES } from "@/lib/disk/limits";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { defineTool } from "@/lib/tools/define-tool";
import { isoTimestamp, pageLimit, readOnly, toDate } from "@/lib/tools/fields";
import { entryShape, entryView } from "@/lib/tools/ledger/entry-view";

export const ledgerQuery = defineTool({
  name: "ledger_query",
  family: "brynth",
  scope: "ledger:read",
  description:
    "Lists ledger entries (who did what, when), newest first, with filters `op`, `agent`, `platform`, `subject`, `since`, `until`. Contains digests only, never content. Pass `next_cursor` as `cursor` to get the next page.",
  input: z
    .object({
      op: z.string().min(1).max(200).optional().describe("Exact operation name, e.g. `session.hello`."),
      agent: z.string().min(1).max(200).optional().describe("Exact agent label."),
      platform: z.string().min(1).max(100).optional().describe("Exact platform, e.g. `claude-code`."),
      // As long as the longest subject a call records, a disk path (1,024 bytes; kv keys are 512): at 300, the
      // entries of a longer key or path could not be looked up by it.
      subject: z.string().min(1).max(PATH_MAX_BYTES).optional().describe("ID of the touched object, e.g. `key_…`."),
      since: isoTimestamp.optional().describe("ISO 8601 timestamp, inclusive."),
      until: isoTimestamp.optional().describe("ISO 8601 timestamp, exclusive."),
      limit: pageLimit(500, 50),
      cursor: z.number().int().min(1).optional().describe("`next_cursor` from the previous page."),
    })
    .strict(),
  output: z.object({ entries: z.array(entryShape), next_cursor: z.number().int().nullable() }),
  annotations: { ...readOnly, title: "Query the ledger" },
  // Reads seal pending entries first on their own connection: no transaction may be open around them.
  transaction: false,
  example: { limit: 5 },
  rest: { method: "GET", path: "/ledger" },
  handler: async (ctx, input) => {
    const { entries, nextCursor } = await queryLedger(ctx.db, {
      actor: ctx.actor,
      ...input,
      since: toDate(input.since),
      until: toDate(input.until),
    });
    return { entries: entries.map(entryView), next_cursor: nextCursor };
  },
});
