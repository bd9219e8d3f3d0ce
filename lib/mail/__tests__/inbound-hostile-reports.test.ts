import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailListEntries, mailMessages } from "@/lib/db/schema/mail";
import { mailDeliveries } from "@/lib/db/schema/mail-send";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { dsnReport, sendReport } from "@/lib/mail/__tests__/delivery-reports";
import { fakeResolver } from "@/lib/mail/__tests__/helpers";
import { addListEntry, addMailbox, mailEventsOf, messagesOf, queueSent } from "@/lib/mail/__tests__/mail-store-helpers";

/**
 * Delivery reports (DSN) and spam complaints (ARF) written to cost us, through the real listener: a genuine report
 * cites one message and names a few recipients; a hostile one quotes tens of thousands of ids or repeats a
 * recipient thousands of times. Each must be answered and stored like any report, and change what one would.
 */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const errors: unknown[] = [];

beforeAll(async () => {
  seeded = await seedProject({ name: "Hostile reports" });
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver(), onError: (err) => errors.push(err) });
});
afterAll(async () => {
  await listener.close();
});
beforeEach(() => {
  errors.length = 0;
});

/** One message of ours to `to`, queued from a fresh mailbox (its delivery waits: no job runner here). */
async function sentMessage(local: string, to: string) {
  const mb = await addMailbox(seeded.project.id, local);
  await queueSent(mb, { to: [to], subject: "Quarterly update", text: "Numbers attached." });
  const [sent] = await messagesOf(mb.id);
  return { mb, sent: sent as typeof sent & { rfcMessageId: string } };
}

/** `n` Message-ID lines of messages that do not exist, as a report's returned headers would quote one. */
const junkIds = (n: number) => Array.from({ length: n }, (_, i) => `Message-ID: <junk-${i}@elsewhere.example>`);

/** An ARF report (RFC 5965) about the message with `rfcId`, from a mailbox provider's feedback loop. */
function arfReport(o: { to: string; rfcId: string; rcpt: string; headers?: string[] }) {
  return [
    "From: Feedback Loop <fbl@isp.example>",
    `To: ${o.to}`,
    "Subject: Abuse report",
    "Message-ID: <arf-1@isp.example>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "A user marked this message as spam.",
    "--b1",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: isp-fbl/1.0",
    "Version: 1",
    `Original-Rcpt-To: <${o.rcpt}>`,
    "",
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: <${o.rfcId}>`,
    ...(o.headers ?? []),
    "",
    "--b1--",
    "",
  ].join("\r\n");
}

const deliveryOf = async (messageId: string) => (await (await getDb()).select().from(mailDeliveries).where(eq(mailDeliveries.messageId, messageId)))[0];
const sendBlocks = async (mailboxId: string) =>
  (await getDb())
    .select()
    .from(mailListEntries)
    .where(and(eq(mailListEntries.mailboxId, mailboxId), eq(mailListEntries.direction, "send"), eq(mailListEntries.type, "block")));

describe("hostile delivery reports", () => {
  // 70,000 ids were as many query parameters: over Postgres's 65,535 the statement never came back, holding the SMTP
  // transaction (no reply at all) and one of the two inbound commit slots for good.
  it("answers a DSN quoting 70,000 Message-IDs, stores it and bounces the one message of ours it cites first", { timeout: 120_000 }, async () => {
    const { mb, sent } = await sentMessage("dsn-flood", "gone@far.example");
    const dsn = dsnReport({ to: mb.address, rfcId: sent.rfcMessageId, failed: "gone@far.example", headers: junkIds(70_000) });
    expect(await sendReport(listener.port, mb.address, dsn)).toMatch(/^250/);

    const rows = await messagesOf(mb.id);
    const report = rows.find((m) => m.direction === "inbound");
    expect(report?.subject).toBe("Undelivered Mail Returned to Sender");
    const delivery = await deliveryOf(sent.id);
    expect(delivery).toMatchObject({ status: "bounced", rejected: [{ recipient: "gone@far.example", response: expect.stringContaining("bounced") }] });
    expect((await mailEventsOf(sent.id)).map((e) => e.type)).toContain("message.bounced");
    expect(errors).toEqual([]);
  });

  it("answers an ARF complaint quoting 70,000 Message-IDs and labels the message it cites", { timeout: 120_000 }, async () => {
    const { mb, sent } = await sentMessage("arf-flood", "reader@far.example");
    const arf = arfReport({ to: mb.address, rfcId: sent.rfcMessageId, rcpt: "reader@far.example", headers: junkIds(70_000) });
    // Through a trusted relay, as a relay provider forwards its feedback loop: believed for any recipient.
    const relays = envSettings("TRUSTED_");
    relays.set({ TRUSTED_RELAYS: "127.0.0.1" });
    try {
      expect(await sendReport(listener.port, mb.address, arf)).toMatch(/^250/);
    } finally {
      relays.restore();
    }

    const [row] = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.id, sent.id));
    expect(row.labels).toContain("complained");
    expect((await sendBlocks(mb.id)).map((e) => e.entry)).toEqual(["reader@far.example"]);
    expect(errors).toEqual([]);
  });

  it("keeps a DSN that names a sender as ordinary mail: a forged one bounces nobody and blocks nobody", { timeout: 120_000 }, async () => {
    const { mb, sent } = await sentMessage("dsn-forged", "victim@far.example");
    const dsn = dsnReport({ to: mb.address, rfcId: sent.rfcMessageId, failed: "victim@far.example" });
    expect(await sendReport(listener.port, mb.address, dsn, "cc-recipient@far.example")).toMatch(/^250/);

    expect((await messagesOf(mb.id)).find((m) => m.direction === "inbound")?.subject).toBe("Undelivered Mail Returned to Sender");
    expect((await deliveryOf(sent.id)).status).not.toBe("bounced");
    expect((await mailEventsOf(sent.id)).map((e) => e.type)).not.toContain("message.bounced");
    expect(await sendBlocks(mb.id)).toEqual([]);
    // The same report with the null sender a real one has is acted on.
    expect(await sendReport(listener.port, mb.address, dsn.replace("<dsn-", "<dsn-real-"))).toMatch(/^250/);
    expect((await deliveryOf(sent.id)).status).toBe("bounced");
    expect(errors).toEqual([]);
  });

  // A null sender is no authentication: one whose sender the lists refuse, or whose From fails DMARC, was still acted
  // on — our message bounced and its recipient send-blocked (found by helper-107).
  it("keeps a DSN the lists refuse or DMARC rejects as mail: it bounces nobody and blocks nobody", async () => {
    // dsnReport's From is MAILER-DAEMON@relay.example, which sends only from 192.0.2.1 and publishes p=reject.
    const strict = await startSmtpListener({
      port: 0,
      host: "127.0.0.1",
      resolver: fakeResolver({ "relay.example": "v=spf1 ip4:192.0.2.1 -all", "_dmarc.relay.example": "v=DMARC1; p=reject" }),
      onError: (err) => errors.push(err),
    });
    try {
      const failing = await sentMessage("dsn-dmarc", "victim@far.example");
      await sendReport(strict.port, failing.mb.address, dsnReport({ to: failing.mb.address, rfcId: failing.sent.rfcMessageId, failed: "victim@far.example" }));
      const blocked = await sentMessage("dsn-blocked", "other@far.example");
      await addListEntry({ projectId: seeded.project.id, mailboxId: blocked.mb.id, direction: "receive", type: "block", entry: "relay.example" });
      await sendReport(listener.port, blocked.mb.address, dsnReport({ to: blocked.mb.address, rfcId: blocked.sent.rfcMessageId, failed: "other@far.example" }));
      for (const [{ mb, sent }, category] of [
        [failing, "unauthenticated"],
        [blocked, "blocked"],
      ] as const) {
        expect((await messagesOf(mb.id)).find((m) => m.direction === "inbound")?.category).toBe(category);
        expect((await deliveryOf(sent.id)).status).not.toBe("bounced");
        expect((await mailEventsOf(sent.id)).map((e) => e.type)).not.toContain("message.bounced");
        expect(await sendBlocks(mb.id)).toEqual([]);
      }
    } finally {
      await strict.close();
    }
    expect(errors).toEqual([]);
  });

  // Each repeat was a rejected entry of the delivery and a list write of its own, inside the shared commit.
  it("counts a recipient a DSN repeats 5,000 times once", { timeout: 120_000 }, async () => {
    const { mb, sent } = await sentMessage("dsn-repeat", "twice@far.example");
    const group = ["Final-Recipient: rfc822; twice@far.example", "Action: failed", "Status: 5.1.1", ""];
    const dsn = dsnReport({ to: mb.address, rfcId: sent.rfcMessageId, failed: "twice@far.example" }).replace(
      "Reporting-MTA: dns; relay.example\r\n",
      `Reporting-MTA: dns; relay.example\r\n\r\n${Array.from({ length: 5_000 }, () => group.join("\r\n")).join("\r\n")}\r\n`,
    );
    expect(await sendReport(listener.port, mb.address, dsn)).toMatch(/^250/);

    const delivery = await deliveryOf(sent.id);
    expect(delivery.status).toBe("bounced");
    expect(delivery.rejected).toHaveLength(1);
    expect((await sendBlocks(mb.id)).map((e) => e.entry)).toEqual(["twice@far.example"]);
    expect((await mailEventsOf(sent.id)).filter((e) => e.type === "message.bounced")).toHaveLength(1);
  });
});
