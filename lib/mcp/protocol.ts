import { z } from "zod";

/** Protocol versions we speak, newest first; an initialize asking for another one gets the newest. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const LATEST_PROTOCOL = PROTOCOL_VERSIONS[0];
/** Without MCP-Protocol-Version a client is assumed to speak 2025-03-26 (spec, "Protocol Version Header"). */
export const DEFAULT_PROTOCOL = "2025-03-26";

export const jsonRpcMessage = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number().int()]).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export type JsonRpcMessage = z.infer<typeof jsonRpcMessage>;

export const rpcErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Transport-level refusals (session, auth) as the SDK reports them. */
  server: -32000,
} as const;

export const initializeParams = z.object({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()).default({}),
  clientInfo: z.object({ name: z.string().max(200), version: z.string().max(100).optional() }).loose(),
}).loose();

export const callParams = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  _meta: z.unknown().optional(),
}).loose();
