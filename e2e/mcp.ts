import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const AGENT_NAME = "brynth-e2e-agent";

/** The real MCP SDK client over streamable HTTP, as an agent would connect with the key from the dashboard. */
export async function connectAgent(baseUrl: string, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: AGENT_NAME, version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool's structuredContent, failing loudly on a tool error. */
export async function callTool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
  return res.structuredContent as T;
}
