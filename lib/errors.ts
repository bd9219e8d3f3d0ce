/**
 * The one error type. `code` is a closed set: the specs' codes plus the transport's own. Domain code throws AppError;
 * adapters render it as `{ name, code, message, fix }` with the HTTP status from `httpStatus`.
 */
export const errorCodes = {
  validation_error: 400,
  bad_request: 400,
  unauthorized: 401,
  missing_permission: 403,
  forbidden: 403,
  NOT_FOUND: 404,
  not_found: 404,
  method_not_allowed: 405,
  CONFLICT: 409,
  ALREADY_DECIDED: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  QUOTA_EXCEEDED: 429,
  rate_limited: 429,
  POLICY_DENIED: 403,
  approval_required: 403,
  PATH_RESERVED: 400,
  UPLOAD_LIMIT: 409,
  UPLOAD_INCOMPLETE: 409,
  LEASE_LOST: 409,
  NOT_CLAIMED: 409,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fix?: string;
  readonly details?: unknown;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { fix?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fix = opts.fix;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

export interface ErrorBody {
  name: string;
  code: ErrorCode;
  message: string;
  fix?: string;
  details?: unknown;
}

/** Unknown errors are logged and rendered generically: their text may hold internals. */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof AppError) {
    return {
      status: err.status,
      headers: err.headers,
      body: { name: "AppError", code: err.code, message: err.message, fix: err.fix, details: err.details },
    };
  }
  console.error("[brynth] unexpected error", err);
  return {
    status: 500,
    body: {
      name: "InternalError",
      code: "internal_error",
      message: "Something went wrong on the server.",
      fix: "Retry later; if it persists, the operator can find the cause in the server log.",
    },
  };
}

export const notFound = (what: string, fix?: string) =>
  new AppError("NOT_FOUND", `${what} not found.`, { fix: fix ?? "Check the id; list the resource to see what exists." });
