import { createServer, type Server, type Socket } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailMessages } from "@/lib/db/schema/mail";
import { getDb } from "@/lib/db/client";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { resetEnvCache } from "@/lib/env";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { runJob } from "@/lib/jobs/run-job";
import { sendEmail } from "@/lib/mail/outbound/send-email";
import { seedProject } from "@/lib/testing/seed";
import { waitFor } from "@/lib/mail/__tests__/helpers";

// The kind as defined, with a 1 s deadline instead of 2 minutes (same handler), so the test is short.
vi.mock("@/lib/mail/outbound/deliver-message-job", async (orig) => {
  const real = (await orig()) as typeof import("@/lib/mail/outbound/deliver-message-job");
  return { ...real, deliverMessageJob: { ...real.deliverMessageJob, timeoutMs: 1000 } };
});

/** A relay that answers the end of DATA one character every 700 ms (a tarpit), logging when the client hangs up. */
let server: Server;
let port = 0;
const events: string[] = [];
beforeAll(async () => {
  server = createServer((s: Socket) => {
    let inData = false;
    let buf = "";
    s.on("close", () => events.push("client-closed"));
    s.on("error", () => {});
    s.write("220 tarpit ESMTP\r\n");
    s.on("data", (chunk) => {
      buf += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          const end = buf.indexOf("\r\n.\r\n");
          if (end < 0) return;
          buf = buf.slice(end + 5);
          inData = false;
          events.push("body-received");
          const reply = "250 2.0.0 queued as TARPIT\r\n";
          let i = 0;
          const t = setInterval(() => {
            if (s.destroyed) return clearInterval(t);
            s.write(reply[i++]);
            if (i >= reply.length) {
              clearInterval(t);
              events.push("reply-finished");
            }
          }, 700);
          continue;
        }
        const nl = buf.indexOf("\r\n");
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === "EHLO") s.write("250-tarpit\r\n250 8BITMIME\r\n");
        else if (cmd === "HELO" || cmd === "MAIL" || cmd === "RCPT" || cmd === "RSET" || cmd === "NOOP") s.write("250 ok\r\n");
        else if (cmd === "DATA") {
          inData = true;
          s.write("354 go\r\n");
        } else if (cmd === "QUIT") s.end("221 bye\r\n");
        else s.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
  process.env.SMTP_RELAY_URL = `smtp://127.0.0.1:${port}`;
  resetEnvCache();
});
afterAll(async () => {
  delete process.env.SMTP_RELAY_URL;
  resetEnvCache();
  await new Promise((r) => server.close(r));
});

/**
 * Found by helper-104: a relay answering the end of DATA one character every 700 ms resets every socket timeout, and
 * the delivery held its job's slot until the relay finished (20 s here, any time it liked), its deadline ignored.
 * The job's signal now ends the SMTP transaction; the body had gone out, so the delivery is unknown, not retried.
 */
describe("a relay that trickles its answer", () => {
  it("is hung up on at the job's deadline, and the delivery is left unknown for the owner", async () => {
    const db = await getDb();
    const { actor } = await seedProject({ name: "Tarpit" });
    const sent = await db.transaction((tx) =>
      sendEmail(tx, { actor, to: ["someone@example.net"], subject: "tarpit", text: "t", attachments: [], reply_to_inbox: true }),
    );
    const [job] = await claimJobs(db, { limit: 1, kinds: ["mail.deliver"] });
    expect(await runJob(db, job)).toBe("done");
    // The relay sees the hang-up a moment later (well before its answer would have ended, 20 s on).
    await waitFor(async () => events.includes("client-closed"), 5_000);
    expect(events).toEqual(["body-received", "client-closed"]);
    const [d] = await db
      .select()
      .from(mailDeliveries)
      .where(eq(mailDeliveries.id, (job.payload as { delivery_id: string }).delivery_id));
    expect(d.status).toBe("unknown");
    const [m] = await db.select().from(mailMessages).where(eq(mailMessages.id, sent.messages[0].message_id));
    expect(m.sendStatus).toBe("send_unknown");
  }, 30_000);
});
