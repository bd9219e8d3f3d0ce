import type { Socket } from "node:net";
import type { SMTPServer, SMTPServerSession } from "smtp-server";
import { CommandClock } from "@/lib/mail/inbound/smtp-command-clock";

// As smtp-server spells session.remoteAddress: an IPv4-mapped address as plain IPv4 (Node already gives IPv6 in its
// canonical form).
const connectionKey = (address: string | undefined, port: number | undefined) => `${(address ?? "").replace(/^::ffff:/i, "").toLowerCase()} ${port}`;

/**
 * A CommandClock for every connection of `server`. smtp-server's handlers get the session but not the socket, so an
 * accepted socket waits here under its peer address and port until onConnect (`start`) claims it; a connection refused
 * before that only leaves when its socket closes. An expired clock answers 421 through smtp-server's own connection,
 * which closes it.
 */
export function commandTimeouts(server: SMTPServer, ms: number) {
  const accepted = new Map<string, Socket>();
  const clocks = new Map<string, CommandClock>();

  server.server.on("connection", (socket: Socket) => {
    const key = connectionKey(socket.remoteAddress, socket.remotePort);
    accepted.set(key, socket);
    socket.once("close", () => accepted.get(key) === socket && accepted.delete(key));
  });

  const expire = (session: SMTPServerSession) => () => {
    for (const connection of server.connections) {
      if (connection.session === session) return connection.send(421, "4.4.2 Command took too long, closing connection");
    }
  };

  return {
    /** From onConnect: the socket is piped to smtp-server's parser by then, so watching it takes nothing away. */
    start(session: SMTPServerSession) {
      const key = connectionKey(session.remoteAddress, session.remotePort);
      const socket = accepted.get(key);
      if (!socket) return;
      accepted.delete(key);
      const clock = new CommandClock(ms, expire(session));
      clocks.set(session.id, clock);
      clock.watch(socket);
    },
    /** From onSecure, after smtp-server has piped the TLS socket (call the handler's callback first). */
    secured(session: SMTPServerSession, socket: Socket) {
      clocks.get(session.id)?.watch(socket);
    },
    beginTransfer(session: SMTPServerSession) {
      clocks.get(session.id)?.beginTransfer();
    },
    endTransfer(session: SMTPServerSession) {
      clocks.get(session.id)?.endTransfer();
    },
    stop(session: SMTPServerSession) {
      clocks.get(session.id)?.stop();
      clocks.delete(session.id);
    },
  };
}
