import type { ApiRequest } from "@/lib/http/api-request";

/**
 * Discovery, registration, token and revocation endpoints answer any origin (browser-based MCP clients such as the
 * Inspector call them from their own page). Safe because nothing here reads ambient credentials: no cookie is ever
 * looked at, and `*` forbids credentialed requests anyway.
 */
export function oauthPreflight(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": `${methods}, OPTIONS`,
      "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
      "Access-Control-Max-Age": "600",
    },
  });
}

export async function withOauthCors(req: ApiRequest, methods: string, serve: () => Promise<Response>): Promise<Response> {
  if (req.method === "OPTIONS") return oauthPreflight(methods);
  const res = await serve();
  res.headers.set("Access-Control-Allow-Origin", "*");
  res.headers.set("Access-Control-Expose-Headers", "WWW-Authenticate, Retry-After");
  return res;
}
