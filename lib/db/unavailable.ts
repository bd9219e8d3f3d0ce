/**
 * Whether an error means the database cannot be reached right now (a restart, a failover, a dropped connection),
 * as opposed to a bug: the caller gets 503 and retries, rather than a 500 that says the server is broken.
 * postgres.js reports its own connection errors by `code` (CONNECTION_CLOSED…), the socket by errno, and the server
 * by SQLSTATE: class 08 (connection exception) and 57P01–57P03 (shutting down, crashed, starting up). Drizzle wraps
 * them, so causes are followed.
 */
const DRIVER_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);
const SERVER_CODES = new Set(["57P01", "57P02", "57P03"]);

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (DRIVER_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith("08"))) return true;
  }
  return false;
}

/**
 * Whether PostgreSQL stopped the statement for running too long (57014 query_canceled: DATABASE_STATEMENT_TIMEOUT_MS,
 * or a limit the work set for itself; nothing here cancels queries otherwise). The caller's request, not the server,
 * is at fault, or a lock it waited on: it gets 503 and may retry or ask for less, never a 500.
 */
export function isStatementTimeout(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "57014") return true;
  }
  return false;
}

/**
 * Whether a write named a project that is gone: a foreign-key violation (23503) on a `…_project_id_projects_id_fk`
 * constraint. A request found its project, then the project's deletion committed before the request's own insert:
 * the caller asked about a project that no longer exists (404), the server is not broken (500). postgres.js names the
 * constraint `constraint_name`, PGlite `constraint`.
 */
export function isProjectGone(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint_name, constraint } = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    const name = constraint_name ?? constraint;
    if (code === "23503" && typeof name === "string" && name.endsWith("_project_id_projects_id_fk")) return true;
  }
  return false;
}
