import { createServer, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackJob } from "@/lib/approvals/callbacks/callback-job";
import { safeFetch } from "@/lib/http/safe-fetch";
import type { JobRow } from "@/lib/db/schema/jobs";
import { DeferJobError } from "@/lib/jobs/define-job-kind";
import { takeEndpointSlot } from "@/lib/jobs/endpoint-slots";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";

/**
 * An endpoint (an agent's callback_url or webhook URL) that answers `101 Switching Protocols`: node:http drops the
 * socket with neither 'error' nor 'response', and safeFetch never settled, holding its endpoint slot until a restart
 * (found by helper-116). It fails as a connection closed unanswered, and the slot comes back.
 */
const settings = envSettings("OUTBOUND_");
const jobSettings = envSettings("JOBS_");
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((sock) => {
    sock.on("error", () => {});
    sock.once("data", () => sock.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  settings.set({ OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}` });
  jobSettings.set({ JOBS_WEBHOOK_ENDPOINT_CONCURRENCY: "1" });
});
afterAll(() => {
  settings.restore();
  jobSettings.restore();
  server.close();
});

describe("safeFetch against an endpoint answering 101", () => {
  it("settles by its deadline instead of hanging for ever", async () => {
    let outcome: string | null = null;
    safeFetch(`${base}/hook`, { method: "POST", body: "{}", timeoutMs: 300 }).then(
      (r) => (outcome = `status ${r.status}`),
      (e: Error) => (outcome = `error ${e.message}`),
    );
    // It never settled.
    await expect.poll(() => outcome, { timeout: 8_000, interval: 100 }).not.toBeNull();
  });

  it("an approvals callback to it releases its endpoint slot once aborted (else that origin is parked for ever)", async () => {
    const { project } = await seedProject();
    const url = `${base}/cb`;
    const abort = new AbortController();
    let settled = false;
    const run = callbackJob.handler(
      { projectId: project.id, url, eventId: "evt_probe101", timestamp: Math.floor(Date.now() / 1000), body: "{}" },
      { job: { kind: "approvals.callback" } as JobRow, attempt: 1, lastAttempt: false, signal: abort.signal },
    );
    run.then(
      () => (settled = true),
      () => (settled = true),
    );
    setTimeout(() => abort.abort(), 300);
    // The runner's signal aborts (job timeout or shutdown): the handler should end and give its slot back.
    await expect.poll(() => settled, { timeout: 8_000, interval: 100 }).toBe(true);
    // The next attempt for this origin must get a slot, not a DeferJobError ("requests ... are in flight").
    let release: (() => void) | undefined;
    expect(() => (release = takeEndpointSlot(`callback:${project.id}:${new URL(url).origin}`, "evt_next", "approvals.callback"))).not.toThrow(DeferJobError);
    release?.();
  });
});
