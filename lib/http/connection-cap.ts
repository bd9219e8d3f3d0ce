import type { Server } from "node:http";
import type { Socket } from "node:net";
import { env } from "@/lib/env";
import { addressLimit } from "@/lib/http/address-limit";

/** What a connection over the cap reads before it is closed: an answer any HTTP client understands. */
const OVER_CAP =
  "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Type: text/plain\r\nContent-Length: 50\r\nConnection: close\r\n\r\nToo many open connections from your address (429).";

/**
 * Open HTTP connections per client address (HTTP_MAX_CONNECTIONS_PER_IP; an IPv6 client's /64): without it one host
 * could hold thousands of sockets, each dripping a request or a body until requestTimeout (300 s), before any key is
 * checked. One over the cap reads a 429 and is closed. Off behind a reverse proxy (TRUST_PROXY), where every
 * connection comes from the proxy's own address: the proxy limits its clients.
 */
export function capConnectionsPerAddress(server: Server): void {
  const { HTTP_MAX_CONNECTIONS_PER_IP: max, TRUST_PROXY } = env();
  if (max === 0 || TRUST_PROXY) return;
  const limit = addressLimit<Socket>(max);
  server.on("connection", (socket: Socket) => {
    if (!limit.admit(socket, socket.remoteAddress ?? "")) {
      socket.end(OVER_CAP, () => socket.destroy());
      return;
    }
    socket.once("close", () => limit.release(socket));
  });
}
