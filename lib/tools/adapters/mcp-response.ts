import type { ApiRequest } from "@/lib/http/api-request";
import { toErrorBody } from "@/lib/errors";
import { progressNotification, rpcErrors, type Id } from "@/lib/mcp/protocol";
import { jsonResponse } from "@/lib/http/json-response";

/**
 * How often a waiting call's stream shows life: a progress notification when the client gave a progress token (an
 * SDK client with `resetTimeoutOnProgress` then keeps waiting past its 60 s request timeout), otherwise an SSE
 * comment, which holds idle proxies open but resets no client timer.
 */
export const PROGRESS_INTERVAL_MS = 15_000;

/** One request's answer, computed when the response is sent. */
export interface Pending {
  id: Id;
  /** The result, or a whole JSON-RPC error message built with `rpcErrorMessage`. */
  run: () => Promise<unknown>;
  /** The call may wait long: answer on an SSE stream even when the client also accepts JSON. */
  waits?: boolean;
  progressToken?: string | number;
  /** Aborted by `notifications/cancelled`: the spec says a cancelled request gets no response. */
  cancelled?: AbortSignal;
  /** Changes nothing (tools/list, ping, a read-only tool): its answer may be refused for size in a batch. */
  readOnly?: boolean;
  /** Gives back what dispatching took, for a request that will never run (its batch was refused after it). */
  abandon?: () => void;
}

const ERROR = Symbol("rpc error");
type RpcErrorMessage = { [ERROR]: true; code: number; message: string };
export const rpcErrorMessage = (code: number, message: string): RpcErrorMessage => ({ [ERROR]: true, code, message });

function message(id: Id, out: unknown) {
  if (out && typeof out === "object" && ERROR in out) {
    const { code, message } = out as RpcErrorMessage;
    return { jsonrpc: "2.0", id, error: { code, message } };
  }
  return { jsonrpc: "2.0", id, result: out };
}

/**
 * Answers one request, or a batch (an array, 2025-03-26 only), as JSON or as an SSE stream: SSE when the client
 * accepts only that, or when a call may wait long, so progress and keep-alives can flow until the result is ready.
 */
export async function respond(req: ApiRequest, pending: Pending[], opts: { batch?: boolean; headers?: Record<string, string> } = {}): Promise<Response> {
  const accept = (req.headers.get("accept") ?? "").toLowerCase();
  const acceptsSse = accept.includes("text/event-stream");
  const acceptsJson = !accept || accept.includes("application/json") || accept.includes("*/*");
  if (!(acceptsSse && (pending.some((p) => p.waits) || !acceptsJson))) {
    const messages = await Promise.all(pending.map(async (p) => message(p.id, await p.run())));
    return jsonResponse(200, opts.batch ? messages : messages[0], opts.headers);
  }
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (s: string) => {
        try {
          controller.enqueue(encoder.encode(s));
        } catch {}
      };
      const event = (msg: unknown) => send(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
      send(": stream open\n\n");
      const started = Date.now();
      const open = new Set(pending);
      timer = setInterval(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        let progressed = false;
        for (const p of open) {
          if (p.progressToken === undefined) continue;
          progressed = true;
          event(progressNotification({ progressToken: p.progressToken, progress: seconds, message: `Still waiting after ${seconds} s.` }));
        }
        if (!progressed) send(": keep-alive\n\n");
      }, PROGRESS_INTERVAL_MS);
      try {
        await Promise.all(
          pending.map(async (p) => {
            const out = await p.run();
            open.delete(p);
            if (!p.cancelled?.aborted) event(message(p.id, out));
          }),
        );
      } finally {
        clearInterval(timer);
        try {
          controller.close();
        } catch {}
      }
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...opts.headers },
  });
}

export const rpcError = (status: number, id: Id, code: number, message: string) => jsonResponse(status, { jsonrpc: "2.0", id, error: { code, message } });

/** Refusals before any JSON-RPC dispatch (auth, origin, session, size) keep their HTTP status. */
export function transportError(err: unknown): Response {
  // The renderer's headers carry the 401 challenge and Retry-After.
  const { status, body, headers } = toErrorBody(err);
  const code = status >= 500 ? rpcErrors.internal : rpcErrors.server;
  return jsonResponse(status, { jsonrpc: "2.0", id: null, error: { code, message: body.message, data: body } }, headers);
}
