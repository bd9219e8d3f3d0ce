import { unstorableText } from "@/lib/db/storable";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { readBody } from "@/lib/http/read-body";
import { OAuthError } from "@/lib/oauth/oauth-error";

/** OAuth requests are small; this bounds what a client can make us parse. */
const MAX_BODY = 64 * 1024;

/**
 * The form body of a token or revocation request (RFC 6749 §4.1.3: application/x-www-form-urlencoded). A parameter
 * sent twice is refused (§3.2), so there is never a question of which one counts; so is one PostgreSQL cannot hold
 * (a `client_id` of `%00` failed the client's lookup as a 500).
 */
export async function readForm(req: ApiRequest): Promise<Map<string, string>> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  const params = new URLSearchParams(Buffer.from(await readBody(req, MAX_BODY)).toString("utf8"));
  return single(params);
}

export function single(params: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of params) {
    if (out.has(k)) throw new OAuthError("invalid_request", `${k} is given more than once.`);
    const problem = unstorableText(v);
    if (problem) throw new OAuthError("invalid_request", `${k} must not contain ${problem}.`);
    out.set(k, v);
  }
  return out;
}

/** Only POST (and a CORS preflight, answered by the caller) reaches these endpoints. */
export function requirePost(req: ApiRequest) {
  if (req.method !== "POST") throw new AppError("method_not_allowed", `${req.method} is not allowed here; use POST.`);
}
