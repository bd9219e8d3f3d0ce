import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** A Node request as a fetch `Request`, with the client's disconnect forwarded as an abort. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
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
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: controller.signal,
    // @ts-expect-error Node's fetch needs duplex for streamed request bodies
    duplex: hasBody ? "half" : undefined,
  });
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
