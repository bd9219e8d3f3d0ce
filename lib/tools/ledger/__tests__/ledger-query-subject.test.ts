import { describe, expect, it } from "vitest";
import { mcpCall, restCall, toolHarness } from "@/lib/tools/events/__tests__/tool-client";

const h = toolHarness();

describe("ledger_query subject", () => {
  it("finds the entries of the longest subject a call records: a 512-byte key", async () => {
    const key = `orders/${"x".repeat(505)}`;
    expect((await mcpCall(h.client, "kv_set", { key, value: 1 })).ok).toBe(true);
    const found = await mcpCall(h.client, "ledger_query", { subject: key });
    expect(found.ok && found.data.entries.map((e: { op: string; subject: string }) => [e.op, e.subject])).toEqual([["kv.set", key]]);
    const rest = await restCall(h.server.url, h.project.secret, "GET", `/ledger?subject=${encodeURIComponent(key)}`);
    expect(rest.status).toBe(200);
    expect(rest.body.entries).toHaveLength(1);
  });
});
