import { isTrustedOrigin } from "@/lib/settings/remote-access";

type Req = { method: string; headers: Pick<Headers, "get"> };

const ALLOW_HEADERS = [
  "Authorization",
  "Content-Type",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Last-Event-ID",
  "X-Brynth-Agent",
  "X-Brynth-Platform",
  "X-Brynth-Project",
  "If-Match",
].join(", ");
/** A browser script needs the session id to continue a session, and the ETag to send If-Match. */
const EXPOSE_HEADERS = "Mcp-Session-Id, ETag, Retry-After, WWW-Authenticate";

/**
 * Browser origins that may read our responses: the public URL's own origin, PUBLIC_URL's, ALLOWED_ORIGINS and the
 * extra origins of Settings → Remote access (lib/settings/remote-access.ts), each named exactly, never `*`. Narrower than isAllowedOrigin (request-info.ts), which also accepts loopback pages for DNS-rebinding
 * purposes: an arbitrary local page must not read a key's data through someone's browser. No credentials mode: the
 * key travels in Authorization, so cookies are never needed cross-origin.
 */
export function corsOrigin(origin: string | null): string | null {
  return origin && isTrustedOrigin(origin) ? origin : null;
}

/** Answers an OPTIONS preflight: 204 with the grants for an allowed origin, 403 for any other. */
export function preflight(req: Req, methods: string): Response {
  const origin = req.headers.get("origin");
  if (!origin) return new Response(null, { status: 204, headers: { Allow: `${methods}, OPTIONS` } });
  const allowed = corsOrigin(origin);
  if (!allowed) return new Response(null, { status: 403, headers: { Vary: "Origin" } });
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": allowed,
      "Access-Control-Allow-Methods": methods,
      "Access-Control-Allow-Headers": ALLOW_HEADERS,
      "Access-Control-Max-Age": "600",
      Vary: "Origin",
    },
  });
}

/** Adds the CORS grant to a response when the request's Origin is allowed; `Vary: Origin` always, for caches. */
export function withCors(req: Req, res: Response): Response {
  const allowed = corsOrigin(req.headers.get("origin"));
  try {
    res.headers.append("Vary", "Origin");
    if (allowed) {
      res.headers.set("Access-Control-Allow-Origin", allowed);
      res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    }
    return res;
  } catch {
    // Immutable headers (a fetched Response): copy them.
    const copy = new Response(res.body, res);
    return withCors(req, copy);
  }
}
