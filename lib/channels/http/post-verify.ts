import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";
import { isAllowedOrigin } from "@/lib/http/request-info";
import { appendEntry } from "@/lib/ledger/append-entry";
import { verifiedEntry } from "@/lib/channels/verify-channel";
import { confirmEmailChannel } from "@/lib/channels/verify-link";

/** POST /verify/<token>/confirm, from the verification page's button; redirects back with the outcome. */
export async function postVerify(req: ApiRequest, token: string): Promise<Response> {
  if (req.method !== "POST") return errorResponse(new AppError("method_not_allowed", "Use the page's form.", { headers: { Allow: "POST" } }));
  if (!/^[A-Za-z0-9]{20,64}$/.test(token)) return errorResponse(new AppError("not_found", "Not found."));
  if (!isAllowedOrigin(req.headers.get("origin"))) return errorResponse(new AppError("forbidden", "Origin not allowed."));
  const db = await getDb();
  // This handler is the verification's pipeline: its entry is written with it.
  const channel = await db.transaction(async (tx) => {
    const verified = await confirmEmailChannel(tx, token);
    if (verified) await appendEntry(tx, verifiedEntry(verified));
    return verified;
  });
  const result = channel ? channel.status : "invalid";
  return new Response(null, { status: 303, headers: { location: `/verify/${token}?result=${result}` } });
}
