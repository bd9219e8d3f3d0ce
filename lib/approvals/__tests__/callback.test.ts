import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema/jobs";
import { resetEnvCache } from "@/lib/env";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { callbackSecret } from "@/lib/approvals/callbacks/callback-secret";
import { approvalsHarness } from "@/lib/approvals/__tests__/helpers";

const { h, call, decide } = approvalsHarness();

let receiver: Server;
let hookUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let failNext = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(failNext-- > 0 ? 500 : 204);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  hookUrl = `http://127.0.0.1:${port}/hooks/approvals`;
  process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
});
afterAll(() => {
  receiver.closeAllConnections();
  receiver.close();
});

const callbackJobs = async () =>
  (await getDb())
    .select()
    .from(jobs)
    .where(and(eq(jobs.projectId, h.seeded.project.id), eq(jobs.kind, "approvals.callback")));

describe("callback_url", () => {
  it("receives the request.resolved event signed in the Standard Webhooks format", async () => {
    const r = await call("ask_approval", { action: "refund", summary: "Refund 30 €?", wait_seconds: 0, callback_url: hookUrl, state_ref: "task-9" });
    const id = r.ok ? (r.data.request_id as string) : "";
    await decide(id, { outcome: "approve" });
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    const secret = await callbackSecret(await getDb(), h.seeded.project.id);
    expect(secret).toMatch(/^whsec_/);
    const verified = new Webhook(secret).verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    }) as { type: string; data: Record<string, unknown> };
    expect(verified.type).toBe("request.resolved");
    expect(verified.data).toMatchObject({ request_id: id, status: "approved", state_ref: "task-9", decided_by: "owner:owner@example.com" });
    expect(String(headers["webhook-id"])).toMatch(/^evt_/);
    // A forged body does not verify.
    expect(() =>
      new Webhook(secret).verify(body.replace("approved", "denied"), {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"]),
      }),
    ).toThrow();
  });

  it("is retried after a failure, with the same id and signature", async () => {
    received.length = 0;
    failNext = 1;
    const r = await call("ask_human", { question: "Ship today?", wait_seconds: 0, callback_url: hookUrl });
    await decide(r.ok ? (r.data.request_id as string) : "", { outcome: "answer", text: "yes" });
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(received).toHaveLength(1);
    const [job] = (await callbackJobs()).filter((j) => j.status === "pending");
    expect(job).toMatchObject({ attempts: 1, lastError: "callback answered 500" });
    await (await getDb()).update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job.id));
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(received).toHaveLength(2);
    expect(received[1].headers["webhook-id"]).toBe(received[0].headers["webhook-id"]);
    expect(received[1].headers["webhook-signature"]).toBe(received[0].headers["webhook-signature"]);
    const [done] = (await callbackJobs()).filter((j) => j.id === job.id);
    expect(done.status).toBe("done");
  });

  it("is sent for policy decisions and expiries too", async () => {
    received.length = 0;
    const r = await call("ask_human", { question: "Anyone?", wait_seconds: 0, callback_url: hookUrl });
    const id = r.ok ? (r.data.request_id as string) : "";
    await (await getDb()).execute(sql`update approval_requests set expires_at = now() - interval '1 second' where id = ${id}`);
    expect((await call("request_status", { request_id: id })).ok).toBe(true);
    await drainJobs({ kinds: ["approvals.callback"] });
    expect(JSON.parse(received[0].body).data).toMatchObject({ request_id: id, status: "expired" });
  });
});
