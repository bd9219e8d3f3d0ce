import { createHash } from "node:crypto";
import { afterEach, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { projectAddress } from "@/lib/mail/project-address";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";
import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";

/**
 * An outsider's message with many DKIM signatures whose name server answers slowly: authentication looked up every
 * key in turn, receiveMessage awaited it even after the client got its 451, and the listener held the message's
 * bytes against SMTP_MAX_INFLIGHT_BYTES until then, so every other sender got 452 (found by helper-116; scaled down
 * here to 100 signatures and 100 ms a lookup). Other senders' mail is taken.
 */
let address: string;
let listener: SmtpListener | undefined;
const opened: SMTPConnection[] = [];
const smtpEnv = envSettings("SMTP_");

beforeAll(async () => {
  const seeded = await seedProject({ name: "DKIM flood" });
  address = await projectAddress(await getDb(), seeded.project.id);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
  await listener?.close();
  smtpEnv.restore();
});

const slowKeys: MailDnsResolver = async (name) => {
  if (name.includes("._domainkey.")) await new Promise((r) => setTimeout(r, 100));
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
};

async function begin(from: string) {
  const c = new SMTPConnection(listener!.port, from);
  opened.push(c);
  await c.open();
  expect(await c.cmd("EHLO sender.example")).toMatch(/^250 /);
  expect(await c.cmd("MAIL FROM:<a@attacker.example>")).toMatch(/^250 /);
  expect(await c.cmd(`RCPT TO:<${address}>`)).toMatch(/^250 /);
  expect(await c.cmd("DATA")).toMatch(/^354 /);
  return c;
}

it("a message whose DKIM key lookups crawl does not keep other senders out after it was answered", async () => {
  smtpEnv.set({ SMTP_STORE_TIMEOUT_MS: "1000", SMTP_MAX_INFLIGHT_BYTES: "30000" });
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: slowKeys });
  const body = "hi\r\n";
  const bh = createHash("sha256").update(body).digest("base64");
  const sigs = Array.from(
    { length: 100 },
    (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.example; s=s${i}; h=from; bh=${bh}; b=AAAA`,
  );
  const flood = await begin("127.0.0.1");
  // ~14 KB; 100 lookups of 100 ms each: the store outlasts SMTP_STORE_TIMEOUT_MS and the client gets 451 after 1 s.
  await flood.cmd(`${sigs.join("\r\n")}\r\nFrom: a@attacker.example\r\nSubject: flood\r\n\r\n${body}.`);

  // Another sender's 20 KB message: once the flood has been answered it should fit (nothing else is arriving).
  // It was 452 until the flood's lookups ran out (here 10 s, in production days).
  const legit = async () => {
    const c = await begin("127.0.0.2");
    try {
      return await c.cmd(`From: b@friend.example\r\nSubject: legit\r\n\r\n${`${"x".repeat(998)}\r\n`.repeat(20)}.`);
    } finally {
      await c.close();
    }
  };
  await expect.poll(legit, { timeout: 4_000, interval: 500 }).toMatch(/^250 /);
}, 40_000);
