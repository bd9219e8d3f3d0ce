import type { z } from "zod";
import { keyPlan } from "@/lib/tools/casing/key-plan";
import { parseSnakeArgs } from "@/lib/tools/casing/parse-snake-args";
import { toSnakeKeys } from "@/lib/tools/casing/rename-keys";
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

/** Parses a call's arguments, written in the transport's casing, into the tool's own (camelCase) input. */
export function parseToolArgs<I extends z.ZodType>(tool: { family: CasedTool["family"]; input: I }, transport: Transport, args: unknown): z.output<I> {
  return snakeArgs(tool, transport) ? parseSnakeArgs(tool.input, args) : parseOrThrow(tool.input, args);
}

/** A handler's checked output as the caller receives it: snake_case keys for the mailbox family. */
export function toolResult(tool: CasedTool, output: unknown): unknown {
  return tool.family === "mailboxes" ? toSnakeKeys(keyPlan(tool.output, "output"), output) : output;
}
