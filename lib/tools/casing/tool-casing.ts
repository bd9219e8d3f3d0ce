import type { z } from "zod";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { parseSnakeArgs } from "@/lib/tools/casing/parse-snake-args";
import { snakePath, toSnakeKeys } from "@/lib/tools/casing/rename-keys";
import { AppError } from "@/lib/errors";
import { fieldError } from "@/lib/disk/field-error";
import { unstorableField } from "@/lib/tools/casing/unstorable-field";
import { snakeSchema } from "@/lib/tools/casing/snake-schema";
import type { ToolDefinition } from "@/lib/tools/define-tool";
import { parseOrThrow } from "@/lib/validation";

export type Transport = "mcp" | "rest";

type CasedTool = Pick<ToolDefinition, "family" | "input" | "output">;

/**
 * Design D4: a mailbox tool's schemas are written once, in camelCase (its MCP contract). REST callers write
 * snake_case, and every caller gets results in snake_case. Brynth tools are served exactly as written.
 */
const snakeArgs = (tool: Pick<CasedTool, "family">, transport: Transport) => tool.family === "mailboxes" && transport === "rest";

/** The input and output schemas a transport's caller sees, for tools/list and OpenAPI; computed once per schema. */
export function toolView(tool: CasedTool, transport: Transport): { input: z.ZodType; output: z.ZodType } {
  if (tool.family !== "mailboxes") return { input: tool.input, output: tool.output };
  return { input: snakeArgs(tool, transport) ? snakeSchema(tool.input) : tool.input, output: snakeSchema(tool.output) };
}

/**
 * Parses a call's arguments, written in the transport's casing, into the tool's own (camelCase) input. Every tool
 * also refuses a NUL or a lone surrogate in its arguments, named as the caller wrote it: they are stored in text and
 * jsonb columns, and matched against them (a ledger filter, an event source), which refuse both. The tool's
 * `jsonText` arguments are exempt: they are kept as the JSON text the caller sent, where both are escapes.
 */
export function parseToolArgs<I extends z.ZodObject>(
  tool: { family: CasedTool["family"]; input: I; jsonText?: ReadonlySet<string> },
  transport: Transport,
  args: unknown,
): z.output<I> {
  const input = snakeArgs(tool, transport) ? parseSnakeArgs(tool.input, args) : parseOrThrow(tool.input, args);
  const bad = unstorableField(args, [], tool.jsonText);
  if (bad) throw fieldError(bad.path.join(".") || "(input)", `must not contain ${bad.problem}`);
  return input;
}

/** A handler's checked output as the caller receives it: snake_case keys for the mailbox family. */
export function toolResult(tool: CasedTool, output: unknown): unknown {
  return tool.family === "mailboxes" ? toSnakeKeys(keyPlan(tool.output, "output"), output) : output;
}

/**
 * An error a handler raised naming fields as the schema spells them (fieldError's validation_error, a CONFLICT on
 * `clientId` or `idempotencyKey`) in the caller's casing: a REST caller of a mailbox tool wrote `inbox_id`, and the
 * error must say so. A validation_error's message is made of its fields, so it is rewritten too.
 */
export function callerCasedError(tool: Pick<CasedTool, "family" | "input">, transport: Transport, err: unknown): unknown {
  if (!snakeArgs(tool, transport) || !(err instanceof AppError) || !isFieldList(err.details)) return err;
  const plan = keyPlan(tool.input, "input");
  const details = err.details.map((d) => ({
    ...d,
    field: snakePath(
      plan,
      d.field.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    ).join("."),
  }));
  const message = err.code === "validation_error" ? details.map((d) => `${d.field}: ${d.message}`).join("; ") : err.message;
  return new AppError(err.code, message, { fix: err.fix, details, headers: err.headers });
}

const isFieldList = (details: unknown): details is Array<{ field: string; message: string }> =>
  Array.isArray(details) && details.length > 0 && details.every((d) => typeof (d as { field?: unknown })?.field === "string");
