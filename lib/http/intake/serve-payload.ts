import { getDb } from "@/lib/db/client";
import { checkPayloadSignature, PAYLOAD_PATH } from "@/lib/events/payload-url";
import { readPayload } from "@/lib/events/read-payload";
import { jsonResponse } from "@/lib/http/json-response";

const refuse = (status: number, message: string) =>
  jsonResponse(status, { error: { name: "AppError", code: status === 404 ? "not_found" : "forbidden", message } });

/**
 * `GET /hooks/payloads/<project>/<event>?expires&sig`: the signed link inbox_claim hands out for large payloads.
 * Third-party bytes are always a download, sandboxed and never sniffed, so nothing renders in Brynth's origin.
 */
export async function servePayload(req: Request, url: URL): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") return refuse(405, "Use GET.");
  const [projectId, eventId, ...rest] = url.pathname.slice(PAYLOAD_PATH.length).split("/");
  if (!projectId || !eventId || rest.length) return refuse(404, "Not found.");
  const link = { projectId, eventId, expires: url.searchParams.get("expires"), sig: url.searchParams.get("sig") };
  if (!checkPayloadSignature(link)) return refuse(403, "This payload link is invalid or has expired; claim the event again for a fresh one.");
  const payload = await readPayload(await getDb(), { projectId, eventId });
  if (!payload) return refuse(404, "Not found.");
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
}
