import { isDatabaseUnavailable, isProjectGone, isStatementTimeout } from "@/lib/db/unavailable";

/**
 * The one error type. `code` is a closed set: the two specs' codes, each spelled as its spec spells it
 * (brynth-mcp-tools.md upper case, mailboxes-mcp-tools.md lower case), plus Brynth's own. A spec's code is used
 * wherever that spec's situation arises, whichever tool family or transport meets it; the transport's own codes
 * (marked "Ours (transport)") answer what no spec covers: credentials, HTTP framing, unknown URLs, server faults.
 * Domain code throws AppError; `toErrorBody` is the one renderer, and the HTTP status comes from this map.
 */
export const errorCodes = {
  /** mailboxes-mcp-tools.md: arguments that fail the tool's schema (unknown ones included), in both families. */
  validation_error: 400,
  /** Ours (transport): a request that is not one at all: unparseable JSON, a missing header, a bad protocol version. */
  bad_request: 400,
  /** Ours (transport): no credential, or a wrong one; rendered with the `WWW-Authenticate` challenge. */
  unauthorized: 401,
  /** mailboxes-mcp-tools.md: the key lacks the scope or permission the call needs, in both families. */
  missing_permission: 403,
  /** Ours: refused for a reason no scope changes: a disallowed Origin, an invalid signed link, the wrong channel. */
  forbidden: 403,
  /** brynth-mcp-tools.md: a resource the caller named does not exist (or is not its project's), in both families. */
  NOT_FOUND: 404,
  /** Ours (transport): no such URL, as opposed to no such resource (`NOT_FOUND`). */
  not_found: 404,
  /** Ours (transport): the URL exists, the method does not. */
  method_not_allowed: 405,
  /** Ours, in brynth-mcp-tools.md's spelling (design/MAILBOXES.md uses it too): the resource's state forbids the change. */
  CONFLICT: 409,
  /** Ours, in brynth-mcp-tools.md's spelling: the approval request was decided already. */
  ALREADY_DECIDED: 409,
  /** Ours (transport): the body is over the endpoint's limit. */
  payload_too_large: 413,
  /** Ours (transport): the body's Content-Type is not one the endpoint reads. */
  unsupported_media_type: 415,
  /** Ours (transport): the Host names no site this server answers for (PUBLIC_URL, loopback, ALLOWED_HOSTS). */
  misdirected_request: 421,
  /** brynth-mcp-tools.md: a project quota (keys, bytes, downloads, mails) would be exceeded. */
  QUOTA_EXCEEDED: 429,
  /** Ours (transport): too many failed authentications from one address, or calls with one key; sent with Retry-After. */
  rate_limited: 429,
  /** brynth-mcp-tools.md: the project policy denies the call. */
  POLICY_DENIED: 403,
  /** mailboxes-mcp-tools.md: the send waits for a person's approval; message and fix name the draft. */
  approval_required: 403,
  /** brynth-mcp-tools.md: disk paths starting with `evt_` belong to inbound attachments. */
  PATH_RESERVED: 400,
  /** brynth-mcp-tools.md: a path already has 3 open uploads. */
  UPLOAD_LIMIT: 409,
  /** brynth-mcp-tools.md: `complete` while the uploaded object is missing or of another size. */
  UPLOAD_INCOMPLETE: 409,
  /** Ours, in brynth-mcp-tools.md's spelling: the event's lease expired and another consumer holds it now. */
  LEASE_LOST: 409,
  /** Ours, in brynth-mcp-tools.md's spelling: ack or nack of an event that is not claimed. */
  NOT_CLAIMED: 409,
  /**
   * mailboxes-mcp-tools.md: a needed part is not configured or not reachable (no mail transport), in both families;
   * also the database when it cannot be reached or stopped a statement that ran past DATABASE_STATEMENT_TIMEOUT_MS.
   */
  service_unavailable: 503,
  /** Ours (transport): an unexpected fault; its details go to the server log, never to the client. */
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fix?: string;
  readonly details?: unknown;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { fix?: string; details?: unknown; headers?: Record<string, string> } = {}) {
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

/** RFC 9110: a 401 names the scheme that would succeed. */
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="brynth"' };

/** A 503 the caller can retry: the database is away, or stopped a statement that ran too long. */
function unavailable(err: unknown, log: string, message: string, fix: string) {
  console.warn(`[brynth] ${log}:`, (err as Error).message);
  return { status: 503, headers: { "Retry-After": "5" }, body: { name: "AppError" as const, code: "service_unavailable" as const, message, fix } };
}

/**
 * The one renderer of errors: status, body and headers for every transport (json-response.ts wraps it for HTTP, the
 * MCP adapter in JSON-RPC). Unknown errors are logged and rendered generically: their text may hold internals.
 */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof AppError) {
    return {
      status: err.status,
      headers: err.code === "unauthorized" ? { ...CHALLENGE, ...err.headers } : err.headers,
      body: { name: "AppError", code: err.code, message: err.message, fix: err.fix, details: err.details },
    };
  }
  if (isDatabaseUnavailable(err)) {
    return unavailable(
      err,
      "database unavailable",
      "The database is not reachable right now.",
      "Retry in a few seconds. A write may have been saved just before the connection dropped: read it back, or retry it where the tool is idempotent.",
    );
  }
  if (isStatementTimeout(err)) {
    return unavailable(
      err,
      "statement timeout",
      "The database stopped this request: it ran longer than the time allowed for one query.",
      "Ask for less (a narrower filter or search, a smaller page) or retry in a few seconds: the data it needed may have been locked by other work.",
    );
  }
  if (isProjectGone(err)) {
    return {
      status: 404,
      body: {
        name: "AppError",
        code: "NOT_FOUND",
        message: "The project was deleted while this request ran; nothing was written.",
        fix: "Pick a project that exists (GET /api/v1/projects lists them).",
      },
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
