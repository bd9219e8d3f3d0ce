import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { generate } from "selfsigned";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { ConfigError } from "@/lib/env";
import { projectAddress } from "@/lib/mail/project-address";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { smtpStatus } from "@/lib/mail/inbound/smtp-status";
import { smtpListener } from "@/lib/services/smtp-listener";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver } from "@/lib/mail/__tests__/helpers";

/** STARTTLS with the certificate of SMTP_TLS_CERT / SMTP_TLS_KEY: nodemailer with requireTLS against the listener. */
const dir = mkdtempSync(join(tmpdir(), "brynth-smtp-tls-"));
const files = { cert: join(dir, "cert.pem"), key: join(dir, "key.pem"), otherKey: join(dir, "other-key.pem"), junk: join(dir, "junk.pem") };
let cert: string;
let address: string;
let listener: SmtpListener | undefined;
const smtpEnv = envSettings("SMTP_");

beforeAll(async () => {
  // CN localhost: selfsigned adds 127.0.0.1 to the names, so the client can verify the certificate for real.
  const pems = await generate([{ name: "commonName", value: "localhost" }], { keySize: 2048 });
  const other = await generate([{ name: "commonName", value: "localhost" }], { keySize: 2048 });
  cert = pems.cert;
  writeFileSync(files.cert, pems.cert);
  writeFileSync(files.key, pems.private);
  writeFileSync(files.otherKey, other.private);
  writeFileSync(files.junk, "this is not a PEM file\n");
  const seeded = await seedProject({ name: "Secure Desk" });
  address = await projectAddress(await getDb(), seeded.project.id);
});
afterEach(async () => {
  await listener?.close();
  listener = undefined;
  smtpEnv.restore();
});

const configure = smtpEnv.set;

async function sendRequiringTls(port: number, subject: string) {
  const t = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, requireTLS: true, tls: { ca: [cert] } });
  try {
    return await t.sendMail({ from: "alice@sender.example", to: address, subject, text: "over TLS" });
  } finally {
    t.close();
  }
}

/** Collects what the server sends on `socket`; `until` waits for a pattern in it. */
function reader(socket: Socket) {
  let text = "";
  const onData = (d: Buffer) => {
    text += d.toString("latin1");
  };
  socket.on("data", onData);
  return {
    until: async (pattern: RegExp, ms = 6000) => {
      const end = Date.now() + ms;
      while (!pattern.test(text)) {
        if (Date.now() > end) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const seen = text;
      text = "";
      return seen;
    },
    detach: () => socket.off("data", onData),
  };
}

const stored = async (subject: string) => (await (await getDb()).select({ n: count() }).from(mailMessages).where(eq(mailMessages.subject, subject)))[0].n;

describe("SMTP STARTTLS", () => {
  it("offers STARTTLS with the configured certificate, and mail sent over it is stored", async () => {
    configure({ SMTP_TLS_CERT: files.cert, SMTP_TLS_KEY: files.key });
    listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
    const info = await sendRequiringTls(listener.port, "Sent over STARTTLS");
    expect(info.accepted).toEqual([address]);
    expect(await stored("Sent over STARTTLS")).toBe(1);
  });

  it("offers no STARTTLS without a certificate: a client requiring TLS gives up and nothing is stored", async () => {
    listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
    await expect(sendRequiringTls(listener.port, "Needs TLS")).rejects.toThrow(/STARTTLS/);
    expect(await stored("Needs TLS")).toBe(0);
  });

  it.each([
    ["a missing certificate file", { SMTP_TLS_CERT: join(dir, "nope.pem"), SMTP_TLS_KEY: files.key }, /SMTP_TLS_CERT.*nope\.pem/],
    ["a key file that is not PEM", { SMTP_TLS_CERT: files.cert, SMTP_TLS_KEY: files.junk }, /SMTP_TLS_KEY/],
    ["a certificate file that is not PEM", { SMTP_TLS_CERT: files.junk, SMTP_TLS_KEY: files.key }, /SMTP_TLS_CERT/],
    ["a key of another certificate", { SMTP_TLS_CERT: files.cert, SMTP_TLS_KEY: files.otherKey }, /SMTP_TLS_KEY.*SMTP_TLS_CERT|SMTP_TLS_CERT.*SMTP_TLS_KEY/],
    ["a certificate without its key", { SMTP_TLS_CERT: files.cert }, /SMTP_TLS_KEY/],
    ["a key without its certificate", { SMTP_TLS_KEY: files.key }, /SMTP_TLS_CERT/],
  ])("refuses to start with %s, naming the setting", async (_case, settings, message) => {
    configure(settings);
    const started = startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(message);
  });

  it("stops the instance's start through the smtp listener service, which reports the setting", async () => {
    configure({ SMTP_PORT: "2599", SMTP_HOST: "127.0.0.1", SMTP_TLS_CERT: join(dir, "nope.pem"), SMTP_TLS_KEY: files.key });
    await expect(smtpListener.start()).rejects.toThrow(/SMTP_TLS_CERT/);
    expect(smtpStatus()).toMatchObject({ state: "failed", error: expect.stringContaining("SMTP_TLS_CERT") });
  });

  it("cuts off a command trickled inside the TLS session after SMTP_COMMAND_TIMEOUT_MS", async () => {
    configure({ SMTP_TLS_CERT: files.cert, SMTP_TLS_KEY: files.key, SMTP_IDLE_TIMEOUT_MS: "1000", SMTP_COMMAND_TIMEOUT_MS: "2000" });
    listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
    const plain = connect(listener.port, "127.0.0.1");
    const before = reader(plain);
    await before.until(/^220 /m);
    plain.write("EHLO slow.example\r\n");
    expect(await before.until(/^250 /m)).toContain("STARTTLS");
    plain.write("STARTTLS\r\n");
    await before.until(/^220 /m);
    before.detach();

    const secure = tlsConnect({ socket: plain, ca: [cert], checkServerIdentity: () => undefined });
    await new Promise((resolve) => secure.once("secureConnect", resolve));
    const closed = new Promise<number>((resolve) => secure.once("close", () => resolve(Date.now())));
    secure.on("error", () => {});
    const inside = reader(secure);
    const t0 = Date.now();
    const line = "EHLO slow.example.with.a.rather.long.name.that.never.ends";
    for (let i = 0; !secure.destroyed && i < line.length && Date.now() - t0 < 6000; i++) {
      if (secure.writable) secure.write(line[i]);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await inside.until(/^421 .*[Cc]ommand/m, 1000)).toBeTruthy();
    expect((await closed) - t0).toBeGreaterThanOrEqual(1900);
  });
});
