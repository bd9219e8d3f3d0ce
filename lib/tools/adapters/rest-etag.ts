import { AppError } from "@/lib/errors";
import type { ApiRequest } from "@/lib/http/api-request";
import type { AnyTool } from "@/lib/tools/run-tool";

/**
 * `If-Match: "3"` → the tool's version argument (e.g. kv_set's `if_version`), so HTTP clients get optimistic
 * concurrency the usual way. A weak tag (`W/"3"`) counts the same; anything but one version is refused.
 */
export function ifMatchArgs(req: ApiRequest, tool: AnyTool, args: Record<string, unknown>): Record<string, unknown> {
  const arg = tool.rest.ifMatch;
  const header = req.headers.get("if-match");
  if (!arg || header === null) return args;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) {
    throw new AppError("validation_error", `${arg}: If-Match must be one ETag this API returned, e.g. "3".`, {
      fix: "Send the ETag of your last read unchanged.",
      details: [{ field: arg, message: "If-Match is not a single version ETag" }],
    });
  }
  const version = Number(m[1]);
  if (arg in args && args[arg] !== version) {
    throw new AppError("validation_error", `${arg}: differs between If-Match and the body.`, { fix: `Send ${arg} in one place only.` });
  }
  return { ...args, [arg]: version };
}

/** The version of what was read or written, as a strong ETag. */
export function etagHeader(tool: AnyTool, out: unknown): Record<string, string> {
  const field = tool.rest.etag;
  const value = field && out && typeof out === "object" ? (out as Record<string, unknown>)[field] : null;
  return typeof value === "number" ? { ETag: `"${value}"` } : {};
}
