import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { hostProblem } from "@/lib/http/host-check";
import { errorResponse } from "@/lib/http/json-response";
import { upgradeRequest } from "@/lib/http/node-request";
import { handleStream, STREAM_PATH } from "@/lib/http/stream/handle-stream";

const g = globalThis as { __brynthWss?: WebSocketServer };

/**
 * `/api/v1/stream` over WebSocket: the same stream as the SSE endpoint (same authentication, same messages), so
 * there is one implementation. Each SSE message becomes one JSON text frame `{event, data}`.
 */
export async function handleStreamUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, origin: string) {
  const controller = new AbortController();
  const response = await handleStream(upgradeRequest(req, origin, controller.signal));
  if (response.status !== 200 || !response.body) return refuseUpgrade(socket, response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // The stream's first bytes mean its subscription is live: only then does the client see the socket open.
  socket.once("close", () => controller.abort());
  const first = await reader.read();
  if (socket.destroyed) return void reader.cancel().catch(() => {});
  const wss = (g.__brynthWss ??= new WebSocketServer({ noServer: true }));
  wss.handleUpgrade(req, socket, head, async (ws) => {
    ws.on("close", () => controller.abort());
    let buffer = first.value ?? "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) ws.send(JSON.stringify({ event, data: JSON.parse(data) }));
        }
      }
    } catch {
      // the socket closed
    }
    ws.close();
  });
}

/** Answers an upgrade with an error response instead of switching protocols. */
async function refuseUpgrade(socket: Duplex, response: Response) {
  const body = await response.text();
  socket.end(
    `HTTP/1.1 ${response.status} Error\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Routes `/api/v1/stream` upgrades to the stream, after the Host check every request gets (host-check.ts). Other
 * upgrades are left to Next in dev (HMR under /_next/) and refused in production.
 */
export function attachStreamUpgrade(server: Server, origin: string, opts: { dev: boolean }) {
  server.on("upgrade", (req, socket, head) => {
    const wrongHost = hostProblem(req.headers);
    if (wrongHost) return void refuseUpgrade(socket, errorResponse(wrongHost)).catch(() => socket.destroy());
    const path = (req.url ?? "/").split("?")[0];
    if (path === STREAM_PATH) {
      req.headers["x-brynth-remote-address"] = req.socket.remoteAddress ?? "unknown";
      handleStreamUpgrade(req, socket, head, origin).catch(() => socket.destroy());
    } else if (!opts.dev) {
      socket.destroy();
    }
  });
}
