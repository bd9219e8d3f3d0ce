import type { Server } from "node:http";
import type { Socket } from "node:net";
import { env } from "@/lib/env";
import { addressLimit } from "@/lib/http/address-limit";
import { isTrustedProxy } from "@/lib/http/trusted-proxy";

/** What a connection over the cap reads before it is closed: an answer any HTTP client understands. */
const OVER_CAP =
  "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Type: text/plain\r\nContent-Length: 50\r\nConnection: close\r\n\r\nToo many open connections from your address (429).";

/**
 * Open HTTP connections per client address (HTTP_MAX_CONNECTIONS_PER_IP; an IPv6 client's /64): without it one host
 * could hold thousands of sockets, each dripping a request or a body until requestTimeout (300 s), before any key is
 * checked. One over the cap reads a 429 and is closed. Not for a trusted reverse proxy's connections (TRUST_PROXY),
 * which carry all its clients: the proxy limits them. A client reaching the port directly is still held to it.
 */
export function capConnectionsPerAddress(server: Server): void {
  const { HTTP_MAX_CONNECTIONS_PER_IP: max } = env();
  if (max === 0) return;
  const limit = addressLimit<Socket>(max);
  server.on("connection", (socket: Socket) => {
    if (isTrustedProxy(socket.remoteAddress)) return;
    if (!limit.admit(socket, socket.remoteAddress ?? "")) {
      socket.end(OVER_CAP, () => socket.destroy());
      return;
    }
    socket.once("close", () => limit.release(socket));
  });
}
