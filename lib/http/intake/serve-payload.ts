import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkPayloadSignature, PAYLOAD_PATH } from "@/lib/events/payload-url";
import { readPayload } from "@/lib/events/read-payload";
import type { ApiRequest } from "@/lib/http/api-request";
import { errorResponse } from "@/lib/http/json-response";

const notFound = () => new AppError("not_found", "Not found.");

/**
 * `GET /hooks/payloads/<project>/<event>?expires&sig`: the signed link inbox_claim hands out for large payloads.
 * Third-party bytes are always a download, sandboxed and never sniffed, so nothing renders in Brynth's origin.
 */
export async function servePayload(req: ApiRequest): Promise<Response> {
  try {
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new AppError("method_not_allowed", "Use GET.", { headers: { Allow: "GET, HEAD" } });
    }
    const url = new URL(req.url);
    const [projectId, eventId, ...rest] = url.pathname.slice(PAYLOAD_PATH.length).split("/");
    if (!projectId || !eventId || rest.length) throw notFound();
    const link = { projectId, eventId, expires: url.searchParams.get("expires"), sig: url.searchParams.get("sig") };
    if (!checkPayloadSignature(link)) {
      throw new AppError("forbidden", "This payload link is invalid or has expired; claim the event again for a fresh one.");
    }
    const payload = await readPayload(await getDb(), { projectId, eventId });
    if (!payload) throw notFound();
    const ext = payload.contentType === "application/json" ? "json" : "bin";
    return new Response(req.method === "HEAD" ? null : Buffer.from(payload.bytes), {
      status: 200,
      headers: {
        "content-type": payload.contentType,
        "content-length": String(payload.bytes.byteLength),
        "content-disposition": `attachment; filename="${eventId}.${ext}"`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'",
        "cache-control": "private, no-store",
      },
    });
  } catch (err) {
    return errorResponse(err);
  }
}
