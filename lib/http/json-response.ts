import { toErrorBody } from "@/lib/errors";

const serialized = new WeakMap<Response, string | Buffer>();

/**
 * A JSON `Response`. The fast path writes the text it was built from (`jsonText`) instead of reading the
 * Response's body stream back (node-adapter.ts); Next reads it as any other Response.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(status, JSON.stringify(body), headers);
}

/** The same from JSON already serialized (a tool call's output, serialized once in run-tool.ts). */
export function jsonTextResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  const response = new Response(text, { status, headers: { "content-type": "application/json", ...headers } });
  serialized.set(response, text);
  return response;
}

/**
 * The same from bytes serialized once and shared (the OpenAPI document): every response writes the one Buffer.
 * Built per request, 600 pipelined requests from a client that never read held 600 copies, 337 MB (found by
 * helper-115); queued writes of one Buffer hold references.
 */
export function jsonBytesResponse(status: number, bytes: Buffer): Response {
  // A body given as bytes is copied by the Response; a stream hands them over only if read (Next reads it; the
  // fast path writes `bytes` itself).
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
  const response = new Response(body, { status, headers: { "content-type": "application/json" } });
  serialized.set(response, bytes);
  return response;
}

/** An error in the API's shape, `{ error: { name, code, message, fix } }`, with the error's own headers. */
export function errorResponse(err: unknown, extra: Record<string, string> = {}): Response {
  const { status, body, headers } = toErrorBody(err);
  return jsonResponse(status, { error: body }, { ...headers, ...extra });
}

export const jsonText = (response: Response): string | Buffer | undefined => serialized.get(response);
