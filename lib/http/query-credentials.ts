import { AppError } from "@/lib/errors";

/** Query parameters a client might put a credential in, matched after percent-decoding (`api%5Fkey` is `api_key`). */
const QUERY_CREDENTIALS = ["api_key", "apikey", "access_token", "token", "key"];

/**
 * Refuses a request that carries a credential in its URL, whatever else it carries (RFC 6750 §5.3: URLs end up in
 * logs, proxies and Referer headers). The one check of every credentialed endpoint that takes no query credential:
 * /mcp and the live streams.
 */
export function refuseQueryCredentials(url: string): void {
  const query = new URL(url).searchParams;
  const named = QUERY_CREDENTIALS.find((name) => query.has(name));
  if (!named) return;
  throw new AppError("unauthorized", `A credential in the query string (\`${named}\`) is never accepted.`, {
    fix: "Send it in the Authorization header (`Authorization: Bearer …`) and remove it from the URL (then rotate it: URLs get logged).",
    details: { oauth_error: "invalid_request" },
  });
}
