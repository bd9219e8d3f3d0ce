import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse, jsonResponse } from "@/lib/http/json-response";
import { readBody } from "@/lib/http/read-body";
import { clientIp } from "@/lib/http/request-info";
import { findSourceByToken } from "@/lib/sources/find-source";
import { findRemovedSourceByToken, recordRefusal } from "@/lib/sources/intake-refusals";
import { receiveWebhook } from "@/lib/sources/receive-webhook";
import { takeDeliveryToken } from "@/lib/sources/delivery-rate-limit";
import { chargeForgery, chargeHookLookup, refuseForger } from "@/lib/sources/failed-hook-throttle";

export const HOOKS_PREFIX = "/hooks/";

/** Every URL under /hooks/ that is not a live source answers exactly this (no fix, no detail): probing reveals nothing. */
const unknownUrl = () => new AppError("not_found", "Not found.");

/**
 * Webhook intake, `POST /hooks/<token>`: size limit → source lookup (throttled per client address when the token is
 * not a live source's) → the source's rate → signature over the raw bytes → stored event.
 * The 2xx goes out only after the event is committed, so a delivery we acknowledge is never lost.
 */
export async function handleHook(req: ApiRequest): Promise<Response> {
  try {
    if (req.method !== "POST") throw new AppError("method_not_allowed", "Webhooks are POSTed.", { headers: { Allow: "POST" } });
    const limit = env().WEBHOOK_MAX_BODY_BYTES;
    // An announced oversize body is refused (413) before the database is touched: readBody checks the length first.
    if (Number(req.headers.get("content-length") ?? "0") > limit) await readBody(req, limit);
    const db = await getDb();
    const token = new URL(req.url).pathname.slice(HOOKS_PREFIX.length);
    // A lookup the source cache cannot answer is charged to the client's address first, so a spray of made-up
    // tokens meets 429 before the database (failed-hook-throttle.ts).
    const source = await findSourceByToken(db, token, () => chargeHookLookup(clientIp(req)));
    if (source?.type !== "webhook") {
      // A removed source's URL still names its project, whose owner sees these on the Overview.
      const removed = source ? null : await findRemovedSourceByToken(db, token);
      if (removed) await recordRefusal(db, { source: removed, reason: "unknown_source", detail: "The source was removed." });
      throw unknownUrl();
    }
    // An address that sent too many forged deliveries lately is refused before its next is read or verified.
    refuseForger(clientIp(req));
    const refund = takeDeliveryToken(db, source);
    // A body that never arrives whole (past the size limit unannounced, or cut off) is no delivery of the source's
    // either: anyone who knew the URL could spend the source's rate with unsigned oversize bodies.
    const body = await readBody(req, limit).catch((err: unknown) => {
      refund();
      chargeForgery(clientIp(req));
      throw err;
    });
    // One INSERT in autocommit: committed when it returns (no BEGIN/COMMIT round trips), then the wake-up goes out.
    const event = await receiveWebhook(db, { source, body, headers: req.headers }).catch(async (err: unknown) => {
      if (err instanceof AppError && err.code === "unauthorized") {
        // Not the source's delivery: charged to the sender's address, not to the source's rate.
        refund();
        chargeForgery(clientIp(req));
        await recordRefusal(db, { source, reason: "bad_signature", detail: err.message });
      }
      throw err;
    });
    return jsonResponse(200, { received: true, event_id: event.id, duplicate: event.duplicate });
  } catch (err) {
    return errorResponse(err);
  }
}
