import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import { checkAuthThrottle, noteAuthFailure } from "@/lib/http/auth-throttle";
import { jsonResponse } from "@/lib/http/json-response";
import { readJson } from "@/lib/http/read-body";
import { clientIp } from "@/lib/http/request-info";
import { getDb } from "@/lib/db/client";
import { NO_STORE, OAuthError, oauthErrorResponse } from "@/lib/oauth/oauth-error";
import { registerClient, registrationInput } from "@/lib/oauth/register-client";
import { requirePost } from "@/lib/oauth/http/oauth-request";
import { withOauthCors } from "@/lib/oauth/http/oauth-cors";

export const REGISTER_PATH = "/oauth/register";

/**
 * RFC 7591 dynamic client registration, open (no initial access token: any MCP client must be able to connect with
 * only the URL). Each registration counts toward the address's failure throttle, so one address registers at most
 * AUTH_FAILURES_PER_MINUTE clients a minute, and registerClient caps clients nobody approved.
 */
export function handleRegister(req: ApiRequest): Promise<Response> {
  return withOauthCors(req, "POST", async () => {
    try {
      requirePost(req);
      const throttleKey = `oauth-register:${clientIp(req)}`;
      checkAuthThrottle(throttleKey);
      if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
        throw new OAuthError("invalid_client_metadata", "The body must be application/json.");
      }
      let body: unknown;
      try {
        body = await readJson(req, 64 * 1024);
      } catch (err) {
        if (err instanceof AppError && err.code === "bad_request") throw new OAuthError("invalid_client_metadata", "The body is not valid JSON.");
        throw err;
      }
      const parsed = registrationInput.safeParse(body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue.path.join(".") || "(body)";
        const error = field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
        throw new OAuthError(error, `${field}: ${issue.message}`);
      }
      noteAuthFailure(throttleKey);
      return jsonResponse(201, await registerClient(await getDb(), parsed.data), NO_STORE);
    } catch (err) {
      return oauthErrorResponse(err);
    }
  });
}
