/**
 * Baseline for bench/mcp.ts: the bare MCP SDK, stateless (a new server and transport per request, as the SDK's
 * stateless example does), in plain node:http, with one `whoami` tool that returns a constant.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const mcp = new McpServer({ name: "baseline", version: "1.0.0" });
  mcp.registerTool("whoami", { description: "who am I" }, async () => ({
    content: [{ type: "text", text: JSON.stringify({ project: "baseline" }) }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    transport.close();
    mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, body);
});
server.listen(0, "127.0.0.1", () => console.log(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}`));
