import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";
import { rawMcp } from "@/lib/testing/mcp-client";

/**
 * JSON numbers past a double's range (`1e400`) parsed to Infinity, passed `z.unknown()` values and were saved as
 * null: the write answered 200 and kv_get returned something else (found by helper-115). The body is refused.
 */
let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());

describe("a JSON number out of double range", () => {
  it("over REST is refused, or kept: never saved as null with a 200", async () => {
    const { secret } = await seedProject();
    const h = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const put = await fetch(`${server.url}/api/v1/kv/big`, { method: "PUT", headers: h, body: '{"value": {"amount": 1e400}}' });
    const got = await fetch(`${server.url}/api/v1/kv/big`, { headers: h });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { error: { message: string } }).error.message).toMatch(/"amount" is too large/);
    // Nothing was saved.
    expect(((await got.json()) as { updated_at: unknown }).updated_at).toBeNull();
  });

  it("over MCP is refused, or kept: never saved as null", async () => {
    const { secret } = await seedProject();
    const h = { authorization: `Bearer ${secret}` };
    const set = await rawMcp(
      server.url,
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"kv_set","arguments":{"key":"big","value":-1e400}}}',
      h,
    );
    const setBody = (await set.json()) as { result?: { isError?: boolean } };
    const get = await rawMcp(server.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "kv_get", arguments: { key: "big" } } }, h);
    const got = (await get.json()) as { result: { structuredContent: { updated_at: unknown } } };
    expect(set.ok && !setBody.result?.isError).toBe(false);
    expect(got.result.structuredContent.updated_at).toBeNull();
  });
});

it("keeps ordinary large and small numbers, and text that looks like one", async () => {
  const { secret } = await seedProject();
  const h = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
  const body = '{"value": {"big": 1.5e308, "tiny": 1e-400, "text": "1e400", "digits": "' + "9".repeat(400) + '"}}';
  expect((await fetch(`${server.url}/api/v1/kv/ok`, { method: "PUT", headers: h, body })).status).toBe(200);
  const got = (await (await fetch(`${server.url}/api/v1/kv/ok`, { headers: h })).json()) as { value: Record<string, unknown> };
  expect(got.value).toEqual({ big: 1.5e308, tiny: 0, text: "1e400", digits: "9".repeat(400) });
});
