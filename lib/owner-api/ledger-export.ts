import { z } from "zod";
import { ledgerSearch } from "@/components/ledger/ledger-search";
import { ledgerExportResponse } from "@/lib/ledger/export-stream";
import { defineOwnerRoute } from "@/lib/owner-api/define-owner-route";

/** Ledger → Export over owner REST: the screen's filters, answered with the same CSV or NDJSON download. */
export const exportLedgerRoute = defineOwnerRoute({
  name: "owner_ledger_export",
  description:
    "Downloads the project's ledger, newest first, as CSV (with a header row; cells a spreadsheet would run as formulas are neutralised) or NDJSON (one entry per line, as ledger_query shows them). Filters as the Ledger screen's: op, agent, platform and subject match exactly; since is inclusive, until exclusive; times without an offset are UTC.",
  input: ledgerSearch.omit({ cursor: true, limit: true }).extend({ format: z.enum(["csv", "ndjson"]).default("csv") }),
  output: z.object({ format: z.enum(["csv", "ndjson"]) }),
  rest: {
    method: "GET",
    path: "/owner/ledger/export",
    produces: ["text/csv", "application/x-ndjson"],
    respond: (_, { actor, db, input: { format, ...filter } }) => ledgerExportResponse(db, actor, filter, format),
  },
  handler: async (_, input) => ({ format: input.format }),
});
