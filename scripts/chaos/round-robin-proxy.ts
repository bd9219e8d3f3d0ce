import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Methods whose repetition means the same as one request (RFC 9110 §9.2.2): safe to resend after a lost answer. */
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
/** An upstream that refused a connection is skipped this long before it is tried again. */
const DOWN_MS = 500;

/**
 * A load balancer in front of the instances: each request goes to the next instance in turn, skipping those that
 * refused a connection lately. A request is resent to another instance only when the first cannot have processed
 * it — its connection was refused — or when its method is idempotent. A POST whose connection broke after it was
 * sent may have been processed (a webhook stored, an event acked), so it gets 502 and the client decides, as a
 * provider or an agent would. `sessions` records which instances served each MCP session.
 */
export async function startRoundRobinProxy(ports: number[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const downUntil = ports.map(() => 0);
  const tally = { forwarded: ports.map(() => 0), resent_refused: 0, resent_idempotent: 0, answered_502: 0 };
  const sessions = new Map<string, Set<number>>();
  let next = 0;

  const pick = (tried: Set<number>) => {
    for (let i = 0; i < ports.length; i++) {
      const n = (next + i) % ports.length;
      if (!tried.has(n) && downUntil[n] <= Date.now()) {
        next = n + 1;
        return n;
      }
    }
    // Every instance looks down: try one not yet tried anyway, as the marks may be stale.
    for (let n = 0; n < ports.length; n++) if (!tried.has(n)) return n;
    return null;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>) => {
    const n = pick(tried);
    if (n === null) return badGateway(res, "no instance answered");
    tried.add(n);
    let answered = false;
    const up = request({ host: "127.0.0.1", port: ports[n], method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
      answered = true;
      tally.forwarded[n]++;
      const session = upRes.headers["mcp-session-id"] ?? req.headers["mcp-session-id"];
      if (typeof session === "string") sessions.set(session, (sessions.get(session) ?? new Set()).add(n));
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
      // The instance died mid-answer: the client must see a broken answer, never a short one taken as whole.
      upRes.on("aborted", () => res.destroy());
      upRes.on("error", () => res.destroy());
    });
    up.on("error", (err: NodeJS.ErrnoException) => {
      if (answered) return res.destroy();
      const refused = err.code === "ECONNREFUSED";
      if (refused) downUntil[n] = Date.now() + DOWN_MS;
      if (refused || IDEMPOTENT.has(req.method ?? "")) {
        tally[refused ? "resent_refused" : "resent_idempotent"]++;
        return forward(req, res, body, tried);
      }
      badGateway(res, `instance ${n + 1} failed after the request was sent (${err.code ?? err.message}); not resent, as it may have been processed`);
    });
    res.on("close", () => {
      if (!res.writableFinished) up.destroy();
    });
    up.end(body);
  };

  const badGateway = (res: ServerResponse, message: string) => {
    tally.answered_502++;
    if (res.headersSent) return res.destroy();
    res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { name: "BadGateway", code: "bad_gateway", message } }));
  };

  const server = createServer((req, res) => {
    // Buffered whole, so that a request can be sent again to another instance.
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tally,
    sessions,
    close: () => {
      server.closeAllConnections();
      server.close();
      agent.destroy();
    },
  };
}
