import { toErrorBody } from "@/lib/errors";
import { rpcErrors } from "@/lib/mcp/protocol";
import { jsonResponse } from "@/lib/http/json-response";

type Id = string | number | null;
const KEEPALIVE_MS = 15_000;
/**
 * Answers a request as JSON, or as an SSE stream when the client asked only for SSE or the call may wait long
 * (keep-alive comments then hold idle proxies open until the result is ready).
 */
export async function respond(
  req: Request,
  id: Id,
  result: unknown | (() => Promise<unknown>),
  opts: { preferStream?: boolean; headers?: Record<string, string> } = {},
): Promise<Response> {
  const accept = (req.headers.get("accept") ?? "").toLowerCase();
  const acceptsSse = accept.includes("text/event-stream");
  const acceptsJson = !accept || accept.includes("application/json") || accept.includes("*/*");
  const produce = typeof result === "function" ? (result as () => Promise<unknown>) : async () => result;
  if (!(acceptsSse && (opts.preferStream || !acceptsJson))) {
    return jsonResponse(200, { jsonrpc: "2.0", id, result: await produce() }, opts.headers);
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (s: string) => {
        try {
          controller.enqueue(encoder.encode(s));
        } catch {}
      };
      send(": stream open\n\n");
      const timer = setInterval(() => send(": keep-alive\n\n"), KEEPALIVE_MS);
      try {
        const out = await produce();
        send(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: out })}\n\n`);
      } finally {
        clearInterval(timer);
        try {
          controller.close();
        } catch {}
      }
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...opts.headers },
  });
}

export const rpcError = (status: number, id: Id, code: number, message: string) =>
  jsonResponse(status, { jsonrpc: "2.0", id, error: { code, message } });

/** Refusals before any JSON-RPC dispatch (auth, origin, session, size) keep their HTTP status. */
export function transportError(err: unknown): Response {
  const { status, body, headers } = toErrorBody(err);
  const extra: Record<string, string> = { ...headers };
  if (status === 401) extra["WWW-Authenticate"] = 'Bearer realm="brynth"';
  const code = status >= 500 ? rpcErrors.internal : rpcErrors.server;
  return jsonResponse(status, { jsonrpc: "2.0", id: null, error: { code, message: body.message, data: body } }, extra);
}
