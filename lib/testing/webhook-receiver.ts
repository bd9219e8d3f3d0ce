import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * How an endpoint answers: a status, a status with headers or after a pause, a redirect to the cloud metadata
 * address, or no answer.
 */
export type ReceiverAnswer = number | { status: number; afterMs?: number; headers?: Record<string, string> } | "redirect-metadata" | "hang";

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `webhook-id`. */
  id: string;
  /** Which of the endpoint's secrets verify the delivery on their own (`standardwebhooks`' verify()). */
  verifiedBy: string[];
  /** When the whole body had arrived (performance.timeOrigin + performance.now(), ms). */
  at: number;
}

/**
 * A real node:http receiver on 127.0.0.1 for webhook tests and benches (design §4 C "Real parts"). Each endpoint is a
 * path with its secrets and a list of answers (the last one repeats): it verifies every delivery with the
 * `standardwebhooks` package, records it, counts `webhook-id`s and TCP connections, and answers as told — a status,
 * a 302 to 169.254.169.254, or never (`hang`, released at close).
 */
export async function startWebhookReceiver(opts: { onDelivery?: (d: ReceivedDelivery) => void; keep?: boolean } = {}) {
  const endpoints = new Map<string, { secrets: string[]; answers: ReceiverAnswer[] }>();
  const received: ReceivedDelivery[] = [];
  const ids = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let connections = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const body = Buffer.concat(chunks).toString("utf8");
      const endpoint = endpoints.get(path);
      const id = String(req.headers["webhook-id"] ?? "");
      const verifiedBy = (endpoint?.secrets ?? []).filter((secret) => {
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      });
      const delivery = { path, headers: req.headers, body, id, verifiedBy, at: performance.timeOrigin + performance.now() };
      // A bench hands each one on and keeps none (`keep: false`): thousands of bodies add up.
      if (opts.keep !== false) received.push(delivery);
      opts.onDelivery?.(delivery);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      for (const w of waiters) w();
      const answers = endpoint?.answers ?? [404];
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (answer === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if (answer === "redirect-metadata") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
        return res.end();
      }
      const { status, afterMs = 0, headers = {} } = typeof answer === "number" ? { status: answer } : answer;
      const end = () => res.writeHead(status, { "content-type": "text/plain", ...headers }).end(status >= 200 && status < 300 ? "ok" : `answer ${status}`);
      if (afterMs > 0) setTimeout(end, afterMs);
      else end();
    });
  });
  server.on("connection", (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    /** For OUTBOUND_ALLOW_HOSTS: this receiver may be called over plain http on loopback. */
    host: `127.0.0.1:${port}`,
    received,
    /** Deliveries per webhook-id. */
    ids,
    get connections() {
      return connections;
    },
    /** Declares (or redeclares) an endpoint; returns its URL. */
    endpoint(path: string, opts: { secrets: string[]; answers?: ReceiverAnswer[] }): string {
      endpoints.set(path, { secrets: opts.secrets, answers: [...(opts.answers ?? [200])] });
      return `${origin}${path}`;
    },
    answer(path: string, answers: ReceiverAnswer[]) {
      const e = endpoints.get(path);
      if (e) e.answers = [...answers];
    },
    at(path: string) {
      return received.filter((r) => r.path === path);
    },
    /** Resolves once `n` deliveries reached `path` (or any path), or rejects after `timeoutMs`. */
    async waitFor(n: number, path?: string, timeoutMs = 10_000): Promise<ReceivedDelivery[]> {
      const count = () => (path ? received.filter((r) => r.path === path) : received);
      if (count().length >= n) return count();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${n} deliveries${path ? ` to ${path}` : ""}, got ${count().length}`));
        }, timeoutMs);
        const check = () => {
          if (count().length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(count());
        };
        waiters.add(check);
      });
    },
    /** Lets every hanging request go (the connection is closed) without closing the server. */
    releaseHanging() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
