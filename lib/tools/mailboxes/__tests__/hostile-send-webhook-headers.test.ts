import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailWebhookDeliveries, mailWebhooks } from "@/lib/db/schema/mail-webhooks";
import { drainJobs } from "@/lib/jobs/drain-jobs";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { envSettings } from "@/lib/testing/env-settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createWebhookTool } from "@/lib/tools/mailboxes/create-webhook";
import { getWebhookHeadersTool } from "@/lib/tools/mailboxes/get-webhook-headers";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { updateWebhookHeadersTool } from "@/lib/tools/mailboxes/update-webhook-headers";
import { call, projectWithKey, refusedFields } from "./inbox-test-helpers";

/**
 * Custom webhook headers an agent sets must be sendable: node:http refuses a header value with control characters
 * or characters beyond Latin-1 at request time, so such a value, once stored, failed every delivery until the
 * webhook was switched off. It is refused when set, naming the header; what HTTP can carry reaches the receiver.
 */
const settings = envSettings("OUTBOUND_");
let receiver: WebhookReceiver;
let p: Awaited<ReturnType<typeof projectWithKey>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  settings.set({ OUTBOUND_ALLOW_HOSTS: receiver.host });
  p = await projectWithKey("Hostile webhook headers");
});
afterAll(async () => {
  settings.restore();
  await receiver.close();
});

let n = 0;
/** A webhook on a receiver path of its own, so each delivery is checked against its own secret. */
async function hook() {
  const path = `/hook-${++n}`;
  const created = await call(createWebhookTool, p.mcp, { request: { url: `http://${receiver.host}${path}`, event_types: ["message.sent"] } });
  receiver.endpoint(path, { secrets: [created.secret], answers: [200] });
  return { webhook_id: created.webhook_id as string, path };
}

describe("update_webhook_headers values", () => {
  it.each([
    ["characters beyond Latin-1", "Bearer 日本"],
    ["a control character", "a\u0001b"],
    ["DEL", "a\u007fb"],
  ])("refuses %s, naming request.headers.<name>, and keeps the headers as they were", async (_what, value) => {
    const { webhook_id } = await hook();
    await call(updateWebhookHeadersTool, p.mcp, { webhookId: webhook_id, request: { headers: { "X-Kept": "yes" } } });
    const fields = await refusedFields(updateWebhookHeadersTool, p.mcp, { webhookId: webhook_id, request: { headers: { "X-Token": value } } });
    expect(fields).toEqual(["request.headers.X-Token"]);
    expect((await call(getWebhookHeadersTool, p.mcp, { webhookId: webhook_id })).headers).toEqual({ "X-Kept": "yes" });
  });

  it("sends a tab and Latin-1 as given, and the delivery verifies", async () => {
    const { webhook_id, path } = await hook();
    await call(updateWebhookHeadersTool, p.mcp, { webhookId: webhook_id, request: { headers: { "X-Team": "caf\u00e9\tbar" } } });
    const from = await seedMailbox(p.project.id);
    const to = await seedMailbox(p.project.id);
    await call(sendMessage, p.mcp, { inboxId: from.id, to: [to.address], subject: "Hook", text: "t" });
    await drainJobs();
    const [delivery] = await (await getDb()).select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, webhook_id));
    expect(delivery).toMatchObject({ status: "delivered", lastError: null });
    const [got] = receiver.received.filter((d) => d.path === path && d.id === delivery.eventId);
    expect(got.verifiedBy).toHaveLength(1);
    // node:http reads header bytes as Latin-1; the bytes sent are the value's UTF-8.
    expect(Buffer.from(String(got.headers["x-team"]), "latin1").toString("utf8")).toBe("caf\u00e9\tbar");
    const [row] = await (await getDb()).select().from(mailWebhooks).where(eq(mailWebhooks.id, webhook_id));
    expect(row.consecutiveFailures).toBe(0);
  });
});
