import { createServer, type AddressInfo, type Server } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailWebhookAttempts, mailWebhookDeliveries } from "@/lib/db/schema/mail-webhooks";
import { defaultMailbox } from "@/lib/mail/project-address";
import { createWebhook } from "@/lib/mail/webhooks/create-webhook";
import { sendWebhook } from "@/lib/mail/webhooks/send-webhook";
import { envSettings } from "@/lib/testing/env-settings";
import { emitBareMailEvent } from "@/lib/testing/mail-events";
import { seedProject } from "@/lib/testing/seed";

/**
 * A mail webhook whose endpoint answers `101 Switching Protocols` (found by helper-116): sendWebhook never recorded
 * the attempt, never counted the failure (so the 5-day auto-disable never started) and never gave back its endpoint
 * slot, and every later delivery of the webhook was put back unattempted for as long as the process lived. The
 * attempt is now a recorded failure.
 */
const settings = envSettings("OUTBOUND_");
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((sock) => {
    sock.on("error", () => {});
    sock.once("data", () => sock.write("HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}/hook`;
  settings.set({ OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}` });
});
afterAll(() => {
  settings.restore();
  server.close();
});

it("a delivery to an endpoint answering 101 ends as a recorded failed attempt once its job is aborted", async () => {
  const db = await getDb();
  const seeded = await seedProject({ name: "101 webhook" });
  const mailbox = await defaultMailbox(db, seeded.project.id);
  const { webhook } = await createWebhook(db, { actor: seeded.actor, webhook: { url, eventTypes: ["message.received"] } });
  await emitBareMailEvent({ projectId: seeded.project.id, mailboxId: mailbox.id });
  const [delivery] = await db.select().from(mailWebhookDeliveries).where(eq(mailWebhookDeliveries.webhookId, webhook.id));

  const abort = new AbortController();
  let settled = false;
  sendWebhook(delivery.id, { attempt: 1, lastAttempt: false, signal: abort.signal, retryDelaysMs: [0], jobKind: "mail.webhook" }).then(
    () => (settled = true),
    () => (settled = true),
  );
  setTimeout(() => abort.abort(), 300); // the job's timeout (or the runner stopping)
  // It never ended, and nothing was logged.
  await expect.poll(() => settled, { timeout: 12_000, interval: 200 }).toBe(true);
  const attempts = await db.select().from(mailWebhookAttempts).where(eq(mailWebhookAttempts.deliveryId, delivery.id));
  expect(attempts).toHaveLength(1);
}, 30_000);
