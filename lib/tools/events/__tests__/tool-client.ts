import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";

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

/** A test file's API server, a seeded project and an MCP client with its key; ready in beforeAll, closed after all. */
export function toolHarness() {
  const h = {} as { server: Awaited<ReturnType<typeof startApiServer>>; project: Awaited<ReturnType<typeof seedProject>>; client: Client };
  beforeAll(async () => {
    h.server = await startApiServer();
    h.project = await seedProject();
    h.client = (await connectMcp(h.server.url, h.project.secret)).client;
  });
  afterAll(async () => {
    await h.client.close();
    await h.server.close();
  });
  return h;
}
