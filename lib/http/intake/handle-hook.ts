import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { toErrorBody } from "@/lib/errors";
import { publishEventChange } from "@/lib/events/events-channel";
import { PAYLOAD_PATH } from "@/lib/events/payload-url";
import { readBody } from "@/lib/http/read-body";
import { servePayload } from "@/lib/http/intake/serve-payload";
import { findSourceByToken } from "@/lib/sources/find-source";
import { receiveWebhook } from "@/lib/sources/receive-webhook";
import { jsonResponse } from "@/lib/http/json-response";

export const HOOKS_PREFIX = "/hooks/";

/** Every URL under /hooks/ that is not a live source answers exactly this, so probing reveals nothing. */
const unknownUrl = () =>
  jsonResponse(404, { error: { name: "AppError", code: "not_found", message: "Not found." } });

/**
 * Webhook intake, `POST /hooks/<token>`: size limit → source lookup → signature over the raw bytes → stored event.
 * The 2xx goes out only after the event is committed, so a delivery we acknowledge is never lost.
 */
export async function handleHook(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname.startsWith(PAYLOAD_PATH)) return servePayload(req, url);
  if (req.method !== "POST") return jsonResponse(405, { error: { name: "AppError", code: "method_not_allowed", message: "Webhooks are POSTed." } }, { Allow: "POST" });
  try {
    const limit = env().WEBHOOK_MAX_BODY_BYTES;
    // An announced oversize body is refused (413) before the database is touched: readBody checks the length first.
    if (Number(req.headers.get("content-length") ?? "0") > limit) await readBody(req, limit);
    const db = await getDb();
    const token = url.pathname.slice(HOOKS_PREFIX.length);
    const source = await findSourceByToken(db, token);
    if (!source || source.type !== "webhook") return unknownUrl();
    const body = await readBody(req, limit);
    // One INSERT in autocommit: committed when it returns (no BEGIN/COMMIT round trips), then the wake-up goes out.
    const event = await receiveWebhook(db, { source, body, headers: req.headers, publishAfterCommit: true });
    if (event.change) publishEventChange(event.change);
    return jsonResponse(200, { received: true, event_id: event.id, duplicate: event.duplicate });
  } catch (err) {
    const { status, body } = toErrorBody(err);
    return jsonResponse(status, { error: body });
  }
}
