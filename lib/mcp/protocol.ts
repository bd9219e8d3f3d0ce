import { storableString } from "@/lib/db/storable";
import {
  CallToolRequestParamsSchema,
  CancelledNotificationParamsSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ImplementationSchema,
  InitializeRequestParamsSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type ProgressNotification,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK's versions that speak Streamable HTTP (it first appeared in 2025-03-26; older ones used HTTP+SSE, which we
 * do not serve), newest first. 2025-03-26 stays because its JSON-RPC batches work here (mcp-batch.ts).
 */
export const PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-03-26");
export const LATEST_PROTOCOL = LATEST_PROTOCOL_VERSION;
/** Without MCP-Protocol-Version a client is assumed to speak 2025-03-26 (spec, "Protocol Version Header"). */
export const DEFAULT_PROTOCOL = DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
/** The only version whose JSON-RPC allowed batches: 2025-06-18 removed them. */
export const BATCH_PROTOCOL = "2025-03-26";

export const jsonRpcMessage = JSONRPCMessageSchema;
export type JsonRpcMessage = JSONRPCMessage;
export type Id = RequestId | null;

export const rpcErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Transport-level refusals (session, auth) as the SDK reports them. */
  server: -32000,
} as const;

/**
 * The SDK's params, with client names capped and storable (no NUL, no lone surrogate): they go into the session row
 * and the ledger, where a NUL failed inside PostgreSQL as a 500.
 */
export const initializeParams = InitializeRequestParamsSchema.extend({
  clientInfo: ImplementationSchema.extend({ name: storableString().max(200), version: storableString().max(100) }),
});
export const callParams = CallToolRequestParamsSchema;
export const cancelledParams = CancelledNotificationParamsSchema;

export const progressNotification = (params: ProgressNotification["params"]) => ({
  jsonrpc: "2.0" as const,
  method: "notifications/progress" as const,
  params,
});
