import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** Bodies announced this small are read before the handler runs: a Buffer is far cheaper than a web stream. */
const SMALL_BODY_BYTES = 64 * 1024;

/** A Node request as a fetch `Request`, with the client's disconnect forwarded as an abort. */
export async function toWebRequest(req: IncomingMessage, res: ServerResponse, origin: string): Promise<Request> {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const length = Number(req.headers["content-length"] ?? NaN);
  const small = hasBody && length <= SMALL_BODY_BYTES;
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (small) init.body = await readAll(req);
  else if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half"; // Node's fetch needs it for streamed request bodies
  }
  return new Request(new URL(req.url ?? "/", origin), init);
}

async function readAll(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks) as Uint8Array<ArrayBuffer>;
}

/** Writes a fetch `Response` to Node, streaming the body (SSE included) chunk by chunk. */
export async function sendWebResponse(res: ServerResponse, response: Response, req?: IncomingMessage): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  // A body left unread (413, early refusals) would corrupt the next request on a kept-alive connection.
  if (req && !req.complete) headers.connection = "close";
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // JSON is always built in memory: one write, without pumping a web stream.
  if (response.body && response.headers.get("content-type")?.startsWith("application/json")) {
    const body = Buffer.from(await response.arrayBuffer());
    headers["content-length"] = String(body.length);
    res.writeHead(response.status, headers);
    return void res.end(body);
  }
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Wait for a slow client instead of buffering a large download in memory.
      if (!res.write(value) && !res.destroyed) await drained(res);
    }
  } catch {
    // the client went away mid-stream
  }
  res.end();
}

/** Resolves once the response can take more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
