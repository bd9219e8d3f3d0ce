const serialized = new WeakMap<Response, string>();

/**
 * A JSON `Response`. The fast path writes the text it was built from (`jsonText`) instead of reading the
 * Response's body stream back (node-adapter.ts); Next reads it as any other Response.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { "content-type": "application/json", ...headers } });
  serialized.set(response, text);
  return response;
}

export const jsonText = (response: Response): string | undefined => serialized.get(response);
