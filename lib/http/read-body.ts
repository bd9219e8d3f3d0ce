import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";

/** Reads a request body up to `limit` bytes; a larger one is refused with 413 before any parsing. */
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
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (limit: number) =>
  new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`, {
    fix: "Send a smaller body; large files go through file_put's presigned upload.",
  });

/**
 * How deep a JSON body may nest, counting every array and object from the body's own. Deeper values would overflow
 * the stack of whatever walks them (schemas, the canonical digest, JSON.stringify, Postgres' jsonb): refused here, at
 * the one JSON reader, before any of them sees one.
 */
export const JSON_MAX_DEPTH = 100;

export async function readJson(req: ApiRequest, limit: number): Promise<unknown> {
  const bytes = await readBody(req, limit);
  if (bytes.byteLength === 0) return undefined;
  if (nestsDeeperThan(bytes, JSON_MAX_DEPTH)) {
    throw new AppError("validation_error", `The JSON body is nested more than ${JSON_MAX_DEPTH} levels deep.`, {
      fix: `Nest arrays and objects at most ${JSON_MAX_DEPTH} levels deep.`,
    });
  }
  try {
    // A view of the bytes, not Buffer.from(bytes), which would copy them (256 KB for a large kv_set) for nothing.
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.", { fix: "Send a JSON body." });
  }
}

const [QUOTE, BACKSLASH, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x7b, 0x5d, 0x7d];

/**
 * Whether JSON text opens more than `max` arrays/objects at once, brackets inside strings aside. Fewer than `max`
 * brackets in all (most bodies, a large kv_set's string included) is settled by two native byte searches.
 */
function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let opens = 0;
  for (const open of [OPEN_ARRAY, OPEN_OBJECT]) {
    for (let i = buf.indexOf(open); i >= 0 && opens <= max; i = buf.indexOf(open, i + 1)) opens++;
  }
  if (opens <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
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
