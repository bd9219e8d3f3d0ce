import type { IncomingMessage, ServerResponse } from "node:http";
import { jsonText } from "@/lib/http/json-response";

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
  const text = jsonText(response);
  if (text !== undefined || (response.body && response.headers.get("content-type")?.startsWith("application/json"))) {
    const body = text === undefined ? Buffer.from(await response.arrayBuffer()) : Buffer.isBuffer(text) ? text : Buffer.from(text);
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
