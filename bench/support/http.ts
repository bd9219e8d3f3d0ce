import { Agent, request } from "node:http";

/** The keep-alive agent behind `http`; a bench that ends before its sockets time out destroys it. */
export const httpAgent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request on a shared keep-alive agent (the benches' load generators), answering status and body text. */
export function http(method: string, url: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent: httpAgent, headers: body ? { "content-length": String(Buffer.byteLength(body)), ...headers } : headers },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (data += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: data }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
