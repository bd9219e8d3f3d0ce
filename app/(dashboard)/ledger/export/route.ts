import { ledgerSearch } from "@/components/ledger/ledger-search";
import { pageParams } from "@/lib/http/page-params";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { ledgerExportResponse } from "@/lib/ledger/export-stream";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The ledger screen's filters as a CSV or NDJSON download (owner REST: GET /api/v1/owner/ledger/export). */
export async function GET(req: Request) {
  const ctx = await currentOwner();
  if (!ctx) return errorResponse(new AppError("unauthorized", "Sign in to export the ledger."));
  const params = pageParams(Object.fromEntries(new URL(req.url).searchParams));
  const parsed = ledgerSearch.omit({ cursor: true, limit: true }).safeParse(params);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return errorResponse(new AppError("validation_error", message));
  }
  return ledgerExportResponse(await getDb(), ctx.actor, parsed.data, params.format === "ndjson" ? "ndjson" : "csv");
}
