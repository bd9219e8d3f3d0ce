import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";

let server: Awaited<ReturnType<typeof startApiServer>>;
let key: string;

beforeAll(async () => {
  server = await startApiServer();
  key = (await seedProject()).secret;
});
afterAll(() => server.close());

describe("smoke", () => {
  it("calls whoami over MCP", async () => {
    const { client } = await connectMcp(server.url, key);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("whoami");
    const res = await client.callTool({ name: "whoami", arguments: {} });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as { project: { name: string } }).project.name).toBe("Project");
    const q = await client.callTool({ name: "ledger_query", arguments: { limit: 5 } });
    console.log(JSON.stringify(q.structuredContent).slice(0, 500));
    await client.close();
  });
});
