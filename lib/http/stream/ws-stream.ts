import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { getDb } from "@/lib/db/client";
import { hostProblem } from "@/lib/http/host-check";
import { errorResponse } from "@/lib/http/json-response";
import { stampRemoteAddress } from "@/lib/http/request-info";
import { upgradeRequest } from "@/lib/http/node-request";
import { streamActor } from "@/lib/http/stream/authorize-stream";
import type { StreamActor } from "@/lib/auth/credential-ends";
import { STREAM_PATH } from "@/lib/http/stream/handle-stream";
import { type FrameSink, StreamSession } from "@/lib/http/stream/stream-session";
import { takeStreamSlot } from "@/lib/http/stream/stream-slots";
import { queryInput, resolveSubscription, type Subscription } from "@/lib/http/stream/subscription";
import { onStopping } from "@/lib/services/server-stopping";

const g = globalThis as { __brynthWss?: WebSocketServer };

/** Live-stream WebSockets open on this process (a stopping server waits for them to close). */
export const openStreamSockets = (): number => g.__brynthWss?.clients.size ?? 0;

/** A ping this often; a socket that has not answered the previous one by then is dropped. */
const PING_MS = 30_000;
/** Client frames are small JSON objects; anything bigger is closed with 1009 by ws. */
const MAX_CLIENT_FRAME = 64 * 1024;
/** 1012 (service restart), sent to every socket when the process begins to stop. */
export const RESTARTING = { code: 1012, reason: "The server is restarting; reconnect and resubscribe with since." } as const;

/**
 * `/api/v1/stream` over WebSocket, the bidirectional protocol (design §1.8 E1, AgentMail's shape): the client sends
 * `{"type":"subscribe", inbox_ids?, event_types?, since?, event_changes?}` and gets `{"type":"subscribed", …}`, then
 * `event` frames (mail events) and `event_change` frames (event-inbox changes); `{"type":"ping"}` gets a pong. A
 * bad frame gets `{"type":"error", code, message, fix}` and the socket stays open. The same authentication as SSE,
 * checked before the upgrade, so a refused client gets an HTTP status. A subscription in the URL's query (as the
 * SSE endpoint takes it) starts at once, and is refused with its status like SSE's.
 */
export async function handleStreamUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, origin: string) {
  const controller = new AbortController();
  socket.once("close", () => controller.abort());
  let actor: StreamActor;
  let initial: Subscription | null = null;
  let release = () => {};
  try {
    const request = upgradeRequest(req, origin, controller.signal);
    actor = await streamActor(request, ["message_read", "inbox:read"], "the live stream");
    // Held by the socket from here on, the upgrade's answer included; its close gives it back.
    release = takeStreamSlot(actor);
    socket.once("close", release);
    const input = queryInput(new URL(request.url));
    if (Object.keys(input).length > 0) initial = await resolveSubscription(await getDb(), actor, input);
  } catch (err) {
    // A socket that closed while the slot was being taken never fires the listener added after it: give the slot
    // back here (release is once only), as for a socket found closed below.
    release();
    return refuseUpgrade(socket, errorResponse(err));
  }
  if (socket.destroyed) return release();
  const wss = (g.__brynthWss ??= new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME }));
  wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, socket, actor, initial));
}

function serveSocket(ws: WebSocket, socket: Duplex, actor: StreamActor, initial: Subscription | null) {
  const coalesce = coalescedWrites(socket);
  const sink: FrameSink = {
    send: (f) => {
      coalesce();
      ws.send((f.bytes ??= Buffer.from(f.json)), { binary: false });
    },
    backlog: () => ws.bufferedAmount,
    close: (code, reason) => ws.close(code, reason),
  };
  const session = new StreamSession(actor, sink);
  let alive = true;
  const timer = setInterval(() => {
    if (!alive) return void ws.terminate();
    alive = false;
    ws.ping();
  }, PING_MS);
  ws.on("pong", () => {
    alive = true;
  });
  ws.on("message", (data, isBinary) => {
    alive = true;
    if (isBinary) return session.receiveBinary();
    session.receive(String(data));
  });
  // A stopping process closes the socket with a code that says to reconnect, rather than have it cut at the grace.
  const offStopping = onStopping(() => sink.close(RESTARTING.code, RESTARTING.reason));
  ws.on("close", () => {
    clearInterval(timer);
    offStopping();
    session.dispose();
  });
  ws.on("error", () => ws.terminate());
  if (initial && ws.readyState === ws.OPEN) void session.start(initial);
}

/**
 * The frames a socket is sent in one turn of the event loop leave in one write: the tail hands out a read's events
 * together, and ws writes each frame on its own (a writev per frame, two thirds of the stream's delivery CPU in a
 * profile of bench/mail-stream.ts). The socket is corked at the first frame and uncorked on the next tick.
 */
function coalescedWrites(socket: Duplex): () => void {
  let corked = false;
  return () => {
    if (corked) return;
    corked = true;
    socket.cork();
    process.nextTick(() => {
      corked = false;
      socket.uncork();
    });
  };
}

/** Answers an upgrade with an error response instead of switching protocols. */
async function refuseUpgrade(socket: Duplex, response: Response) {
  const body = await response.text();
  const extra = [...response.headers].filter(([name]) => name.toLowerCase() === "www-authenticate").map(([n, v]) => `${n}: ${v}\r\n`);
  socket.end(
    `HTTP/1.1 ${response.status} Error\r\ncontent-type: application/json\r\n${extra.join("")}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Routes `/api/v1/stream` upgrades to the stream, after the Host check every request gets (host-check.ts). Other
 * upgrades are left to Next in dev (HMR under /_next/) and refused in production.
 */
export function attachStreamUpgrade(server: Server, origin: string, opts: { dev: boolean }) {
  server.on("upgrade", (req, socket, head) => {
    // Node takes its own error listener off an upgraded socket, and ws adds one only in handleUpgrade: a client that
    // reset the connection while it was being refused or authenticated threw ECONNRESET with nobody listening, and
    // the process exited (found by helper-115). This one outlives the handover; ws's own handles the socket after.
    socket.on("error", () => socket.destroy());
    // First: the Host check reads it to know whether X-Forwarded-Host comes from a trusted proxy.
    stampRemoteAddress(req);
    const wrongHost = hostProblem(req.headers);
    if (wrongHost) return void refuseUpgrade(socket, errorResponse(wrongHost)).catch(() => socket.destroy());
    const path = (req.url ?? "/").split("?")[0];
    if (path === STREAM_PATH) {
      handleStreamUpgrade(req, socket, head, origin).catch(() => socket.destroy());
    } else if (!opts.dev) {
      socket.destroy();
    }
  });
}
