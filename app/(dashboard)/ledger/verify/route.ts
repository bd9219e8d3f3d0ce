import { z } from "zod";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { ledgerHeadSeq } from "@/lib/ledger/ledger-stats";
import { verifyLedger } from "@/lib/ledger/verify-ledger";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/json-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Seqs per request: each stays short, and the button shows progress between requests on big ledgers. */
const CHUNK = 50_000;

const query = z.object({ from_seq: z.coerce.number().int().min(1).default(1) });

/**
 * One slice of the chain for the "Verify chain" button. verifyLedger anchors a slice on the stored hash of the
 * entry before it, which the previous slice recomputed, so slice by slice is the same check as all at once; the
 * last slice also checks the head. A read, so a GET route rather than a (transactional) server action.
 */
export async function GET(req: Request) {
  const ctx = await currentOwner();
  if (!ctx) return errorResponse(new AppError("unauthorized", "Sign in again."));
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) {
    return errorResponse(new AppError("validation_error", "from_seq must be a positive integer."));
  }
  const fromSeq = parsed.data.from_seq;
  const toSeq = fromSeq + CHUNK - 1;
  const db = await getDb();
  const result = await verifyLedger(db, { actor: ctx.actor, fromSeq, toSeq });
  const latest = await ledgerHeadSeq(db, { actor: ctx.actor });
  return Response.json({ ...result, latest, done: !result.ok || toSeq >= latest }, { headers: { "cache-control": "no-store" } });
}
