import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { cachedRecipient, recipientCache } from "@/lib/mail/inbound/recipient-cache";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { projectAddress } from "@/lib/mail/project-address";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver } from "@/lib/mail/__tests__/helpers";
import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";

/**
 * A client that hangs up while its RCPT's recipient lookup is still running leaves nothing of its session behind,
 * and every spelling of one address (case, Unicode or xn--, soft hyphens IDNA drops) shares one recipient-cache
 * entry. Before, the listener stored the session's mailbox list again once the lookup answered, after onClose had
 * removed it, so each hung-up client kept a Mailbox row for good; and the cache was keyed by the address as written,
 * so spelling the domain with one more soft hyphen each time made every RCPT a database lookup (found by helper-114).
 */
const lookups = vi.hoisted(() => ({ started: 0, settled: 0, gate: Promise.resolve() }));
vi.mock("@/lib/mail/inbound/resolve-recipient", async (orig) => {
  const real = (await orig()) as typeof import("@/lib/mail/inbound/resolve-recipient");
  return {
    ...real,
    resolveRecipient: async (...args: Parameters<typeof real.resolveRecipient>) => {
      lookups.started++;
      try {
        await lookups.gate;
        return await real.resolveRecipient(...args);
      } finally {
        lookups.settled++;
      }
    },
  };
});

let listener: SmtpListener;
let address: string;
const smtpEnv = envSettings("SMTP_");

beforeAll(async () => {
  const seeded = await seedProject({ name: "RCPT close" });
  address = await projectAddress(await getDb(), seeded.project.id);
  // One connection per client address: a second one is greeted 220 only once the first one's onClose has run.
  smtpEnv.set({ SMTP_MAX_CLIENTS_PER_IP: "1" });
  // The resets below are the point; any other fault is reported.
  const onError = (err: unknown) => (err as { code?: string }).code !== "ECONNRESET" && console.error(err);
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver(), onError });
});
afterAll(async () => {
  await listener?.close();
  smtpEnv.restore();
});

/** Connects from `from`, sends EHLO, then MAIL + RCPT, and resets the connection without waiting for the answer. */
function hangUpAfterRcpt(from: string, rcpt: string) {
  const started = lookups.started;
  return new Promise<void>((resolve) => {
    const s = connect({ port: listener.port, host: "127.0.0.1", localAddress: from });
    let buf = "";
    let stage = 0;
    s.on("error", () => {});
    s.on("close", () => resolve());
    s.on("data", (d) => {
      buf += d.toString("latin1");
      if (stage === 0 && /^220 /m.test(buf)) {
        stage = 1;
        buf = "";
        s.write("EHLO leak.example\r\n");
      } else if (stage === 1 && /^250 /m.test(buf)) {
        stage = 2;
        s.write(`MAIL FROM:<a@sender.example>\r\nRCPT TO:<${rcpt}>\r\n`);
        // Reset once the RCPT's lookup has begun, so the session closes while it runs.
        void expect
          .poll(() => lookups.started)
          .toBeGreaterThan(started)
          .then(
            () => s.resetAndDestroy(),
            () => s.destroy(),
          );
      }
    });
  });
}

const isMailbox = (m: unknown) => !!m && typeof m === "object" && "projectId" in m && "localPart" in m;

describe("RCPT then hang up", () => {
  it("keeps no mailbox list of a session closed while its RCPT was being looked up", { timeout: 30_000 }, async () => {
    // The listener's per-session state is private: watch every Map given a list while the sessions run.
    const maps = new Set<Map<unknown, unknown>>();
    const realSet = Map.prototype.set;
    const spy = vi.spyOn(Map.prototype, "set").mockImplementation(function (this: Map<unknown, unknown>, k: unknown, v: unknown) {
      if (Array.isArray(v)) maps.add(this);
      return realSet.call(this, k, v);
    });
    try {
      for (let i = 1; i <= 5; i++) {
        const from = `127.0.0.${10 + i}`;
        recipientCache.invalidate(await getDb());
        let release = () => {};
        lookups.gate = new Promise<void>((r) => {
          release = r;
        });
        const settled = lookups.settled;
        await hangUpAfterRcpt(from, address);
        // The listener has run onClose once another connection from the same address is greeted.
        await expect
          .poll(async () => {
            const c = new SMTPConnection(listener.port, from);
            const greeting = await c.open();
            await c.close();
            return greeting;
          })
          .toMatch(/^220 /);
        release();
        await expect.poll(() => lookups.settled).toBe(settled + 1);
        // The lookup's answer reaches the listener in the microtasks after it settles.
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      spy.mockRestore();
    }
    const leaked = [...maps].flatMap((m) => [...m.values()]).filter((v) => Array.isArray(v) && v.some(isMailbox));
    expect(leaked).toEqual([]);
  });

  it("looks an address up once for all its spellings", async () => {
    lookups.gate = Promise.resolve();
    const db = await getDb();
    // Nothing is cached until the cache's LISTEN is in place.
    await expect
      .poll(async () => {
        await cachedRecipient(db, address);
        const before = lookups.started;
        await cachedRecipient(db, address);
        return lookups.started - before;
      })
      .toBe(0);
    const [local, domain] = address.split("@");
    const before = lookups.started;
    for (const spelling of [
      address.toUpperCase(),
      ` ${address} `,
      `${local}@${domain.slice(0, 3)}\u00ad${domain.slice(3)}`,
      `${local}@${domain.slice(0, 3)}\u00ad\u00ad${domain.slice(3)}`,
    ])
      expect((await cachedRecipient(db, spelling)).kind).toBe("mailbox");
    expect(lookups.started).toBe(before);
  });
});
