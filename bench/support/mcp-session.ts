import { Agent, request } from "node:http";

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function http(method: string, url: string, body: string | undefined, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body ? { "content-length": String(Buffer.byteLength(body)), ...headers } : headers }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: data }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** An MCP session over plain HTTP: initialize once, then tools/call returning the text item. */
export async function mcpSession(base: string, key: string) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` };
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  const res = await fetch(`${base}/mcp`, { method: "POST", headers, body: init });
  const session = res.headers.get("mcp-session-id")!;
  await res.text();
  const callHeaders = { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  return async (name: string, args: Record<string, unknown>) => {
    const r = await http(
      "POST",
      `${base}/mcp`,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      callHeaders,
    );
    const parsed = JSON.parse(r.body);
    if (r.status !== 200 || !parsed.result || parsed.result.isError) throw new Error(`${name}: ${r.body.slice(0, 300)}`);
    return parsed.result.content[0].text as string;
  };
}
