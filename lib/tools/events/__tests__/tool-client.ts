import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export type ToolResult = { ok: true; data: Record<string, unknown> & { [k: string]: any } } | { ok: false; code: string; message: string };

/** One tool call over MCP, as a plain result or the error's code. */
export async function mcpCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) {
    const body = JSON.parse((res.content as { text: string }[])[0].text);
    return { ok: false, code: body.code, message: body.message };
  }
  return { ok: true, data: res.structuredContent as Record<string, unknown> };
}

/** The same over REST. */
export async function restCall(base: string, secret: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
