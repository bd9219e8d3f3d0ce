import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { openStreamSockets } from "@/lib/http/stream/ws-stream";
import { beginStopping } from "@/lib/services/server-stopping";

/** How often the drain looks whether what it waits for has ended. */
const LOOK_MS = 25;
/**
 * How long a kept-alive connection stays unused during the drain before it is closed. Closing one at the instant
 * its client sends on it resets that request, and the client cannot tell it from a crash (a POST may have been
 * done): a connection in use is instead answered with `Connection: close`, and only one its client has left alone
 * this long is closed (a client reuses its most recent connection first).
 */
const IDLE_CLOSE_MS = 1000;

/**
 * A graceful stop for an HTTP server; call before it serves, and the returned `drain` once on SIGTERM.
 *
 * Cutting every socket at once (what server.ts did) broke the requests in flight: a client whose POST was cut
 * cannot tell whether it was done (a message sent, an event acked), and one without an idempotency key may do it
 * twice. `drain(graceMs)` instead:
 * - takes no new connection;
 * - lets each request in flight finish, and answers it and every later request on a kept-alive connection with
 *   `Connection: close`, so that the client closes that connection knowing why;
 * - closes a kept-alive connection once it has been left unused for IDLE_CLOSE_MS;
 * - tells the process it is stopping (server-stopping.ts): long-polls return their timeout answer, and live
 *   streams end so their clients reconnect (SSE's end, WebSocket 1012), to another instance behind a balancer;
 * - after `graceMs`, cuts what is still open. Resolves with how many requests and streams that cut, and which
 *   requests (method, path and how long they had run), for the log: a request that outlasts a grace is a lead.
 */
export function drainOnStop(server: Server): (graceMs: number) => Promise<{ cut: number; requests: string[] }> {
  const sockets = new Set<Socket>();
  /** Each response in flight, with its request and when it began. */
  const inFlight = new Map<ServerResponse, { req: IncomingMessage; since: number }>();
  /** Requests in flight per socket (a kept-alive socket may pipeline several). */
  const busy = new Map<Socket, number>();
  /** Kept-alive sockets with nothing in flight, and since when (performance.now()). */
  const idleSince = new Map<Socket, number>();
  let draining = false;

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    idleSince.set(socket, performance.now());
    socket.once("close", () => {
      sockets.delete(socket);
      idleSince.delete(socket);
    });
  });
  // A live stream's socket is the stream's own to close (ws-stream.ts).
  server.on("upgrade", (req) => idleSince.delete(req.socket));
  // Ahead of the server's own handler, so that a request arriving during the drain is answered with
  // `Connection: close` whatever the handler writes.
  server.prependListener("request", (req, res) => {
    const socket = req.socket;
    idleSince.delete(socket);
    inFlight.set(res, { req, since: performance.now() });
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    if (draining) res.shouldKeepAlive = false;
    res.once("close", () => {
      inFlight.delete(res);
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) return void busy.set(socket, left);
      busy.delete(socket);
      // Kept alive (an answer with `Connection: close` closes it itself): unused from now on.
      if (res.shouldKeepAlive && !socket.destroyed) idleSince.set(socket, performance.now());
    });
  });

  return async (graceMs) => {
    draining = true;
    // Stops listening only: http.Server#close also closes every idle kept-alive connection at once (IDLE_CLOSE_MS).
    NetServer.prototype.close.call(server);
    for (const res of inFlight.keys()) if (!res.headersSent) res.shouldKeepAlive = false;
    beginStopping();
    const until = performance.now() + graceMs;
    const open = () => inFlight.size + openStreamSockets();
    while ((open() > 0 || idleSince.size > 0) && performance.now() < until) {
      await new Promise((r) => setTimeout(r, LOOK_MS));
      const now = performance.now();
      for (const [socket, since] of idleSince) {
        if (now - since < IDLE_CLOSE_MS) continue;
        idleSince.delete(socket);
        socket.end();
      }
    }
    const cut = open();
    const now = performance.now();
    const requests = [...inFlight.values()].map(({ req, since }) => `${req.method} ${(req.url ?? "").split("?")[0]} (${((now - since) / 1000).toFixed(1)} s)`);
    // Whatever is left: what the grace did not see end, and upgrades that are not ours (Next's HMR in dev).
    for (const socket of sockets) socket.destroy();
    return { cut, requests };
  };
}
