import { request } from "node:http";

export interface RawRequest {
  method: string;
  /** Sent exactly as written: fetch would resolve `..` and `%2e`, re-encode bytes and refuse bodies on GET. */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
}

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/**
 * One HTTP/1.1 request to a test server, on a fresh connection, bytes as given. A connection the server resets
 * rejects: for the fuzz tests that is a transport failure, never an answer.
 */
export function rawHttp(baseUrl: string, req: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : Buffer.from(req.body);
    const headers = { connection: "close", ...req.headers, ...(body ? { "content-length": String(body.byteLength) } : {}) };
    const r = request({ host: url.hostname, port: url.port, path: req.path, method: req.method, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    r.on("timeout", () => r.destroy(new Error(`no answer to ${req.method} ${req.path.slice(0, 200)} within ${timeoutMs} ms`)));
    r.on("error", reject);
    r.end(body);
  });
}
