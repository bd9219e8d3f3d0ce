import { AppError, toErrorBody } from "@/lib/errors";
import { jsonResponse } from "@/lib/http/json-response";

/**
 * The error codes of RFC 6749 §5.2 and §4.1.2.1, RFC 7591 §3.2.2 and RFC 8707 §2 that this server answers with.
 * OAuth clients read `error` and nothing else, so these never go through the API's `{ error: { code } }` shape.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "server_error"
  | "temporarily_unavailable";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

/** RFC 6749 §5.1: token responses (and their errors) must never be cached. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/**
 * `{ error, error_description }` with its status. An AppError from a shared helper (the throttle's 429, a body over
 * the limit) keeps its status and headers; anything unexpected is logged by the one renderer and answered
 * `server_error`, never with its text.
 */
export function oauthErrorResponse(err: unknown): Response {
  if (err instanceof OAuthError) {
    return jsonResponse(err.status, { error: err.error, error_description: err.description }, { ...NO_STORE, ...err.headers });
  }
  const { status, body, headers } = toErrorBody(err);
  const error = err instanceof AppError && status === 429 ? "temporarily_unavailable" : status >= 500 ? "server_error" : "invalid_request";
  return jsonResponse(status, { error, error_description: body.message }, { ...NO_STORE, ...headers });
}
