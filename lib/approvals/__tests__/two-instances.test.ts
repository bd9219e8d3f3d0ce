import { describe, expect, it } from "vitest";
import { useTwoInstances } from "@/lib/testing/spawn-instance";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { approvalRequests } from "@/lib/db/schema/approvals";
import { OWNER_EMAIL, OWNER_PASSWORD, seedProject } from "@/lib/testing/seed";
import { connectMcp } from "@/lib/testing/mcp-client";
import { mcpCall } from "@/lib/tools/events/__tests__/tool-client";

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

// The waiter and the decision meet only through Postgres (LISTEN/NOTIFY), as behind a load balancer.
describe.runIf(onPostgres)("approvals across two instances", () => {
  const instances = useTwoInstances();

  it("wakes an agent waiting on instance A when the owner decides on instance B", async () => {
    const seeded = await seedProject({ scopes: ["approvals"] });
    const { client } = await connectMcp(instances.a.url, seeded.secret);
    // A wait longer than the test's timeout: the call can only return by being woken.
    let returned = false;
    const waiting = mcpCall(client, "ask_approval", { action: "refund", summary: "Refund across instances?", wait_seconds: 120, state_ref: "x" }).finally(
      () => (returned = true),
    );
    // The request's id, as the owner's Approvals screen would show it.
    let id: string | undefined;
    for (let i = 0; i < 100 && !id; i++) {
      const rows = await (await getDb())
        .select({ id: approvalRequests.id })
        .from(approvalRequests)
        .where(and(eq(approvalRequests.projectId, seeded.project.id), eq(approvalRequests.action, "refund"), eq(approvalRequests.status, "pending")));
      id = rows[0]?.id;
      if (!id) await new Promise((r) => setTimeout(r, 100));
    }
    expect(returned).toBe(false);
    const decided = await fetch(`${instances.b.url}/api/v1/requests/${id}/decision`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${OWNER_EMAIL}:${OWNER_PASSWORD}`).toString("base64")}`,
        "content-type": "application/json",
        "x-brynth-project": seeded.project.id,
      },
      body: JSON.stringify({ outcome: "approve" }),
    });
    expect(decided.status).toBe(200);
    const r = await waiting;
    expect(r).toMatchObject({ ok: true, data: { request_id: id, status: "approved", state_ref: "x" } });
    await client.close();
  });
});
