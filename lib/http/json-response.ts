import { toErrorBody } from "@/lib/errors";

const serialized = new WeakMap<Response, string>();

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

/** An error in the API's shape, `{ error: { name, code, message, fix } }`, with the error's own headers. */
export function errorResponse(err: unknown, extra: Record<string, string> = {}): Response {
  const { status, body, headers } = toErrorBody(err);
  return jsonResponse(status, { error: body }, { ...headers, ...extra });
}

export const jsonText = (response: Response): string | undefined => serialized.get(response);
