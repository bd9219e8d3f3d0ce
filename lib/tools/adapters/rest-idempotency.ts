import { fieldError } from "@/lib/disk/field-error";
import type { ApiRequest } from "@/lib/http/api-request";
import type { AnyTool } from "@/lib/tools/run-tool";

/**
 * `Idempotency-Key: k` → the tool's `idempotency_key` argument (the REST spelling; MCP passes `idempotencyKey`), so
 * HTTP clients use the usual header and both transports share one key space. The header and a body value that
 * differ are refused rather than one silently winning.
 */
export function idempotencyArgs(req: ApiRequest, tool: AnyTool, args: Record<string, unknown>): Record<string, unknown> {
  const header = req.headers.get("idempotency-key");
  if (!tool.idempotencyKey || header === null) return args;
  const field = tool.family === "mailboxes" ? "idempotency_key" : "idempotencyKey";
  if (field in args && args[field] !== header) {
    throw fieldError(field, "differs between the Idempotency-Key header and the body", "Send the key in one place only.");
  }
  return { ...args, [field]: header };
}
