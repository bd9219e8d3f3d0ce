import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** A real MCP SDK client over streamable HTTP, authenticated with a key. */
export async function connectMcp(baseUrl: string, key: string, opts: { sessionId?: string; headers?: Record<string, string> } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    sessionId: opts.sessionId,
    requestInit: { headers: { Authorization: `Bearer ${key}`, ...opts.headers } },
  });
  const client = new Client({ name: "brynth-test", version: "1.0.0" });
  if (opts.sessionId) {
    // Resuming: the SDK skips initialize when the transport already has a session id.
    await client.connect(transport);
  } else {
    await client.connect(transport);
  }
  return { client, transport };
}

/** Raw JSON-RPC POST to /mcp, for the transport's own edge cases. */
export async function rawMcp(baseUrl: string, body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: method === "POST" ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
}
