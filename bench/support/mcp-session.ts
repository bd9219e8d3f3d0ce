import { http } from "./http";

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
