import { request } from "node:http";

/**
 * A POST through node:http, for what fetch will not send: repeated headers kept apart (an array value), header
 * values as latin-1 bytes. Tests of the intake only.
 */
export function rawPost(url: string, body: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let data = "";
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
