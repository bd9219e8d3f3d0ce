import { afterEach, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalDeliveries, approvalRequests } from "@/lib/db/schema/approvals";
import { envSettings } from "@/lib/testing/env-settings";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedKey } from "@/lib/testing/seed";
import { mcpCall } from "@/lib/tools/events/__tests__/tool-client";
import { approvalsHarness } from "@/lib/approvals/__tests__/helpers";

/** Requests one key may have waiting for a person at once (KEY_MAX_PENDING_REQUESTS): each messages the approvers. */
const { h, call, decide, setPolicy } = approvalsHarness();
const capEnv = envSettings("KEY_MAX_PENDING_REQUESTS");
afterEach(() => capEnv.restore());

const ask = (via: typeof call, i: number) => via("ask_approval", { action: "refund", summary: `Refund order ${i}?`, wait_seconds: 0 });

async function rows(keyId: string) {
  const db = await getDb();
  const where = and(eq(approvalRequests.projectId, h.seeded.project.id), eq(approvalRequests.keyId, keyId));
  const [requests] = await db.select({ n: count() }).from(approvalRequests).where(where);
  const [deliveries] = await db
    .select({ n: count() })
    .from(approvalDeliveries)
    .innerJoin(approvalRequests, eq(approvalRequests.id, approvalDeliveries.requestId))
    .where(where);
  return { requests: requests.n, deliveries: deliveries.n };
}

/** A new key of the harness's project, with its own MCP client. */
async function freshKey() {
  const key = await seedKey(h.seeded.project.id, ["approvals"]);
  const { client } = await connectMcp(h.url, key.secret);
  return { id: key.key.id, call: (name: string, args: Record<string, unknown> = {}) => mcpCall(client, name, args) };
}

describe("pending requests per key", () => {
  it("refuses one more than KEY_MAX_PENDING_REQUESTS with rate_limited, writing and sending nothing, until one is decided", async () => {
    capEnv.set({ KEY_MAX_PENDING_REQUESTS: "3" });
    const key = await freshKey();
    const asked = [];
    for (let i = 0; i < 3; i++) asked.push(await ask(key.call, i));
    expect(asked.map((r) => r.ok && r.data.status)).toEqual(["pending", "pending", "pending"]);
    const before = await rows(key.id);

    for (const [tool, args] of [
      ["ask_approval", { action: "refund", summary: "Refund order 4?", wait_seconds: 0 }],
      ["ask_human", { question: "Which plan?", wait_seconds: 0 }],
      ["policy_set", { policy: { rules: [{ id: "r", effect: "allow" }] }, note: "n", wait_seconds: 0 }],
    ] as const) {
      const refused = await key.call(tool, args);
      expect(refused, tool).toMatchObject({ ok: false, code: "rate_limited" });
      expect(!refused.ok && refused.message).toContain("already has 3 requests waiting for a person");
    }
    expect(await rows(key.id)).toEqual(before);

    // Another key has its own places.
    expect(await ask(call, 9)).toMatchObject({ ok: true, data: { status: "pending" } });

    // A decision frees a place.
    await decide(asked[0].ok ? (asked[0].data.request_id as string) : "", { outcome: "approve" });
    expect(await ask(key.call, 5)).toMatchObject({ ok: true, data: { status: "pending" } });
    expect(await ask(key.call, 6)).toMatchObject({ ok: false, code: "rate_limited" });
  });

  it("lets concurrent asks take exactly the places left, and never counts requests the policy decides at once", async () => {
    capEnv.set({ KEY_MAX_PENDING_REQUESTS: "3" });
    const key = await freshKey();
    const out = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(key.call, i)));
    expect(out.filter((r) => r.ok).length).toBe(3);
    expect(out.filter((r) => !r.ok).every((r) => !r.ok && r.code === "rate_limited")).toBe(true);
    expect((await rows(key.id)).requests).toBe(3);

    // Approved by the policy at once: nobody is messaged, so the cap does not apply.
    await setPolicy([{ id: "small", action: "refund", effect: "auto_approve" }]);
    try {
      expect(await ask(key.call, 9)).toMatchObject({ ok: true, data: { status: "approved", decided_by: "policy:small" } });
    } finally {
      await setPolicy([]);
    }
  });
});
