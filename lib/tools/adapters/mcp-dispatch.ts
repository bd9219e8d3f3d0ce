import type { ApiRequest } from "@/lib/http/api-request";
import { toErrorBody } from "@/lib/errors";
import type { McpSession } from "@/lib/db/schema/keys";
import { type McpPrincipal, principalActor } from "@/lib/mcp/principal";
import { callParams, cancelledParams, rpcErrors } from "@/lib/mcp/protocol";
import { cancelCall, trackCall } from "@/lib/mcp/running-calls";
import { takeCallToken } from "@/lib/keys/call-rate-limit";
import type { JSONRPCNotification, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { mcpToolList } from "@/lib/tools/adapters/mcp-tool-list";
import { rpcErrorMessage, type Pending } from "@/lib/tools/adapters/mcp-response";
import { UNTRUSTED_META } from "@/lib/tools/define-tool";
import { findTool } from "@/lib/tools/registry";
import { keyMayUse, onTransport } from "@/lib/tools/define-tool";
import { runTool } from "@/lib/tools/run-tool";

/** The caller of a request: a key, an OAuth grant or the owner (lib/mcp/principal.ts). */
export type Key = McpPrincipal;

/** A request (other than initialize) as its deferred answer; the caller decides JSON or SSE, single or batch. */
export function dispatchRequest(req: ApiRequest, key: Key, session: McpSession | null, msg: JSONRPCRequest): Pending {
  const answer = (out: unknown): Pending => ({ id: msg.id, run: async () => out, readOnly: true });
  switch (msg.method) {
    // Counted like calls (429, as initialize): uncounted, one key drew about 470 answers in 2 s at a limit of 3 a
    // minute, tools/list's the largest there are, 50 to a batch.
    case "ping":
      takeCallToken(key.id);
      return answer({});
    case "tools/list":
      takeCallToken(key.id);
      return answer({ tools: mcpToolList(key.scopes) });
    case "tools/call": {
      const params = callParams.safeParse(msg.params);
      if (!params.success) {
        // Named: `arguments` sent as an array or a string is a different mistake from a missing `name`.
        const issue = params.error.issues[0];
        return answer(rpcErrorMessage(rpcErrors.invalidParams, `tools/call ${["params", ...issue.path].join(".")}: ${issue.message}.`));
      }
      const tool = findTool(params.data.name);
      if (!tool || !onTransport(tool, "mcp")) return answer(rpcErrorMessage(rpcErrors.invalidParams, `Unknown tool: ${params.data.name}`));
      const actor = principalActor(key, req.headers, session);
      const args = params.data.arguments ?? {};
      // `wait_seconds: 0` asks not to wait: such a call is answered as plain JSON like any other.
      const waits = Boolean(tool.waits) && args.wait_seconds !== 0 && keyMayUse(tool, key.scopes);
      // Only calls that wait are worth cancelling; a cancel needs the session to name them by.
      const tracked = waits && session ? trackCall(session.id, key.id, msg.id) : null;
      if (waits && session && !tracked) {
        return answer(rpcErrorMessage(rpcErrors.invalidRequest, `Request id ${JSON.stringify(msg.id)} is already in use by a running call of this session.`));
      }
      const signal = tracked ? AbortSignal.any([req.signal, tracked.signal]) : req.signal;
      const meta = tool.untrusted ? { _meta: UNTRUSTED_META } : {};
      return {
        id: msg.id,
        waits,
        readOnly: tool.annotations.readOnlyHint,
        progressToken: params.data._meta?.progressToken,
        cancelled: tracked?.signal,
        abandon: () => tracked?.done(),
        run: async () => {
          try {
            // runTool counts keys' calls; the owner's count in the owner's own bucket, as over REST (rest.ts).
            if (key.kind === "owner") takeCallToken(key.id);
            const { output, text } = await runTool(tool, actor, args, signal);
            return { content: [{ type: "text", text }], structuredContent: output, ...meta };
          } catch (err) {
            const { body } = toErrorBody(err);
            return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
          } finally {
            tracked?.done();
          }
        },
      };
    }
    default:
      return answer(rpcErrorMessage(rpcErrors.methodNotFound, `Method not found: ${msg.method}`));
  }
}

/**
 * A cancel counts as a call of its key, taken before any message of its POST is handled (throws `rate_limited`, 429):
 * one that misses this instance is published through the database to every instance (running-calls.ts), and
 * uncounted, batches of 100 cancels with 7 KB request ids went out as fast as they came, filling Postgres's NOTIFY
 * queue and every instance's listener.
 */
export function chargeNotification(key: Key, session: McpSession | null, msg: JSONRPCNotification): void {
  if (msg.method === "notifications/cancelled" && session) takeCallToken(key.id);
}

/** Notifications need no answer; a cancel aborts the call it names, if it is this session's and still running. */
export function handleNotification(key: Key, session: McpSession | null, msg: JSONRPCNotification): void {
  if (msg.method !== "notifications/cancelled" || !session) return;
  const params = cancelledParams.safeParse(msg.params);
  if (params.success && params.data.requestId !== undefined) {
    cancelCall(session.id, key.id, params.data.requestId, params.data.reason);
  }
}
