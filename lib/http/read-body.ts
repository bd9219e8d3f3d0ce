import { NonFiniteNumberError, parseFiniteJson } from "@/lib/json/finite-json";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { refuseDeepJson } from "@/lib/json/json-depth";

/** Bytes of request bodies being read at once, over every request of the process (MAX_INFLIGHT_BODY_BYTES). */
const g = globalThis as { __brynthBodyBytes?: { reading: number } };
const bodies = () => (g.__brynthBodyBytes ??= { reading: 0 });
const BUSY_RETRY_S = 5;

/**
 * Reads a request body up to `limit` bytes; a larger one is refused with 413 before any parsing. A body streamed
 * (over 64 KB, node-request.ts) counts against MAX_INFLIGHT_BODY_BYTES while it arrives: each request alone is held
 * to `limit`, but a client sending many bodies slowly had them all held at once (2 MB each on /api/v1, 5 MB on
 * /hooks/, with no call counted until a body was complete). Past the budget the request gets 503 and Retry-After.
 */
export async function readBody(req: ApiRequest, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > limit) throw tooLarge(limit);
  const buffered = req.bufferedBody;
  if (buffered) {
    if (buffered.byteLength > limit) throw tooLarge(limit);
    return buffered;
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  const budget = bodies();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      if (budget.reading + value.byteLength > env().MAX_INFLIGHT_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw busy();
      }
      budget.reading += value.byteLength;
      size += value.byteLength;
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  } finally {
    budget.reading -= size;
  }
}

const busy = () =>
  new AppError("service_unavailable", "The server is receiving too many request bodies at once.", {
    fix: `Retry in ${BUSY_RETRY_S} s.`,
    headers: { "Retry-After": String(BUSY_RETRY_S) },
  });

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`, {
    fix: "Send a smaller body; large files go through file_put's presigned upload.",
  });

/** The body as JSON, refused past JSON_MAX_DEPTH levels (lib/json/json-depth.ts) before it is parsed. */
export async function readJson(req: ApiRequest, limit: number): Promise<unknown> {
  const bytes = await readBody(req, limit);
  if (bytes.byteLength === 0) return undefined;
  refuseDeepJson(bytes);
  // A view of the bytes, not Buffer.from(bytes), which would copy them (256 KB for a large kv_set) for nothing.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  try {
    return parseFiniteJson(text);
  } catch (err) {
    if (err instanceof NonFiniteNumberError) {
      throw new AppError("bad_request", `The request body's ${err.message}.`, { fix: "Send it as a string, or within ±1.7e308." });
    }
    throw new AppError("bad_request", "The request body is not valid JSON.", { fix: "Send a JSON body." });
  }
}

/** An HTML form's fields (application/x-www-form-urlencoded, what a plain `<form method="post">` sends). */
export async function readForm(req: ApiRequest, limit: number): Promise<URLSearchParams> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new AppError("unsupported_media_type", "Content-Type must be application/x-www-form-urlencoded.", { fix: "Submit the page's form." });
  }
  const bytes = await readBody(req, limit);
  return new URLSearchParams(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
}
