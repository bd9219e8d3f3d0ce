import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startApiServer } from "@/lib/testing/api-server";
import { seedKey, seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";
import { allScopes } from "@/lib/keys/scopes";
import { tools } from "@/lib/tools/registry";
import { scopesOf } from "@/lib/tools/define-tool";
import type { AnyTool } from "@/lib/tools/run-tool";

/**
 * Generated from the registry: every tool, both transports. No key → 401; a key without the scope → refused and
 * absent from tools/list; an unknown argument → validation_error; and, where the tool has an example, MCP and REST
 * give results of the same shape that match the output schema.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
let full: { secret: string; projectId: string };
let mcp: Client;

beforeAll(async () => {
  server = await startApiServer();
  const seeded = await seedProject();
  full = { secret: seeded.secret, projectId: seeded.project.id };
  mcp = (await connectMcp(server.url, full.secret)).client;
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

function restRequest(tool: AnyTool, secret: string | null, args: Record<string, unknown>) {
  let path = tool.rest.path;
  const rest = { ...args };
  for (const m of path.matchAll(/\{(\w+)\}/g)) {
    path = path.replace(m[0], encodeURIComponent(String(rest[m[1]] ?? "x")));
    delete rest[m[1]];
  }
  const bodyless = tool.rest.method === "GET" || tool.rest.method === "DELETE";
  const qs = bodyless ? `?${new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]))}` : "";
  return fetch(`${server.url}/api/v1${path}${qs}`, {
    method: tool.rest.method,
    headers: { "content-type": "application/json", ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
    body: bodyless ? undefined : JSON.stringify(rest),
  });
}

// callTool's result type is a union that includes the legacy `toolResult` shape, hence `unknown`.
const errorCode = (res: unknown) => JSON.parse((res as { content: { text: string }[] }).content[0].text).code;

describe.each(tools.map((t) => [t.name, t] as const))("%s", (_name, tool) => {
  it("refuses a call without a key (401) over MCP and REST", async () => {
    const mcpRes = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: {} } }),
    });
    expect(mcpRes.status).toBe(401);
    const restRes = await restRequest(tool, null, {});
    expect(restRes.status).toBe(401);
    expect((await restRes.json()).error.code).toBe("unauthorized");
  });

  if (scopesOf(tool).length > 0)
    it("hides and refuses the tool for a key without its scope", async () => {
      const others = allScopes.filter((s) => !scopesOf(tool).includes(s));
      const { secret } = await seedKey(full.projectId, others, `without ${tool.name}`);
      const { client } = await connectMcp(server.url, secret);
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).not.toContain(tool.name);
      const res = await client.callTool({ name: tool.name, arguments: tool.example ?? {} });
      expect(res.isError).toBe(true);
      expect(errorCode(res)).toBe("missing_permission");
      await client.close();
      const restRes = await restRequest(tool, secret, (tool.example as Record<string, unknown>) ?? {});
      expect(restRes.status).toBe(403);
      expect((await restRes.json()).error.code).toBe("missing_permission");
    });

  it("rejects an unknown argument with validation_error over both transports", async () => {
    const args = { ...((tool.example as Record<string, unknown>) ?? {}), bogus_argument: 1 };
    const res = await mcp.callTool({ name: tool.name, arguments: args });
    expect(res.isError).toBe(true);
    expect(errorCode(res)).toBe("validation_error");
    const restRes = await restRequest(tool, full.secret, args);
    expect(restRes.status).toBe(400);
    expect((await restRes.json()).error.code).toBe("validation_error");
  });

  it("is listed with annotations, an input schema and an object output schema", async () => {
    const listed = (await mcp.listTools()).tools.find((t) => t.name === tool.name)!;
    expect(listed.annotations).toEqual(expect.objectContaining({ readOnlyHint: expect.any(Boolean) }));
    expect(listed.inputSchema.type).toBe("object");
    expect(listed.outputSchema?.type).toBe("object");
  });

  if (tool.example !== undefined)
    it("gives the same result shape over MCP and REST", async () => {
      const viaMcp = await mcp.callTool({ name: tool.name, arguments: tool.example });
      expect(viaMcp.isError).toBeFalsy();
      expect(JSON.parse((viaMcp.content as { text: string }[])[0].text)).toEqual(viaMcp.structuredContent);
      const restRes = await restRequest(tool, full.secret, tool.example as Record<string, unknown>);
      expect(restRes.status).toBe(200);
      const viaRest = await restRes.json();
      expect(tool.output.safeParse(viaRest).success).toBe(true);
      expect(tool.output.safeParse(viaMcp.structuredContent).success).toBe(true);
      expect(Object.keys(viaRest).sort()).toEqual(Object.keys(viaMcp.structuredContent as object).sort());
    });
});
