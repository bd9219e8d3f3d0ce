import type { Actor } from "@/lib/actor";
import type { Db } from "@/lib/db/client";
import { withoutStatementTimeout } from "@/lib/db/statement-timeout";
import { csvHeader, csvRow, ndjsonRow } from "@/lib/ledger/export-format";
import { type LedgerFilter, readLedgerPage } from "@/lib/ledger/query-ledger";
import { sealProject } from "@/lib/ledger/seal-entries";

export type ExportFormat = "csv" | "ndjson";

const PAGE = 1000;

/**
 * The filtered ledger as a CSV or NDJSON download, newest first, streamed page by page so a large ledger never sits
 * in memory: the dashboard's export link and owner REST's export both answer with it.
 */
export function ledgerExportResponse(db: Db, actor: Pick<Actor, "projectId">, filter: Omit<LedgerFilter, "limit" | "cursor">, format: ExportFormat): Response {
  const ndjson = format === "ndjson";
  const encoder = new TextEncoder();
  let cursor: number | undefined;
  let started = false;

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        // What was committed before the download began is chained first, outside any transaction: sealing inside
        // the page's own waited on itself on PGlite's one connection, and the download hung at its first byte.
        await sealProject(db, actor.projectId);
        if (!ndjson) controller.enqueue(encoder.encode(csvHeader()));
        started = true;
      }
      // A filter no index serves reads far to fill a page: long by nature, so no statement timeout.
      const page = await withoutStatementTimeout(db, (tx) => readLedgerPage(tx, { actor, ...filter, limit: PAGE, cursor }));
      const text = page.entries.map(ndjson ? ndjsonRow : csvRow).join("");
      if (text) controller.enqueue(encoder.encode(text));
      if (page.nextCursor === null) controller.close();
      else cursor = page.nextCursor;
    },
  });

  const stamp = new Date().toISOString().slice(0, 10);
  const name = `ledger-${actor.projectId}-${stamp}.${format}`;
  return new Response(body, {
    headers: {
      "content-type": ndjson ? "application/x-ndjson; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}
