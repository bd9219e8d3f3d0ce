import { ledgerSearch } from "@/components/ledger/ledger-search";
import { pageParams } from "@/lib/http/page-params";
import { csvHeader, csvRow, ndjsonRow } from "@/lib/ledger/export-format";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { withoutStatementTimeout } from "@/lib/db/statement-timeout";
import { queryLedger } from "@/lib/ledger/query-ledger";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const PAGE = 1000;

/** The filtered ledger as CSV or NDJSON, streamed page by page so a large ledger never sits in memory. */
export async function GET(req: Request) {
  const ctx = await currentOwner();
  if (!ctx) return errorResponse(new AppError("unauthorized", "Sign in to export the ledger."));
  const params = pageParams(Object.fromEntries(new URL(req.url).searchParams));
  const parsed = ledgerSearch.omit({ cursor: true, limit: true }).safeParse(params);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return errorResponse(new AppError("validation_error", message));
  }
  const ndjson = params.format === "ndjson";
  const db = await getDb();
  const encoder = new TextEncoder();
  let cursor: number | undefined;
  let started = false;

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started && !ndjson) controller.enqueue(encoder.encode(csvHeader()));
      started = true;
      // A filter no index serves reads far to fill a page: long by nature, so no statement timeout.
      const page = await withoutStatementTimeout(db, (tx) => queryLedger(tx, { actor: ctx.actor, ...parsed.data, limit: PAGE, cursor }));
      const text = page.entries.map(ndjson ? ndjsonRow : csvRow).join("");
      if (text) controller.enqueue(encoder.encode(text));
      if (page.nextCursor === null) controller.close();
      else cursor = page.nextCursor;
    },
  });

  const stamp = new Date().toISOString().slice(0, 10);
  const name = `ledger-${ctx.project.id}-${stamp}.${ndjson ? "ndjson" : "csv"}`;
  return new Response(body, {
    headers: {
      "content-type": ndjson ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}
