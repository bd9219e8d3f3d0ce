import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { projectAddress } from "@/lib/mail/project-address";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";

/**
 * A header folded over many continuation lines cost quadratic CPU on the listener's (the whole app's) event loop:
 * mailauth's parseHeaders joins each continuation line with a concat and a splice. 30,000 lines (120 KB) took 5 s,
 * 1,000,000 (4 MB) more than ten minutes, from anyone, on the open port (found by helper-114). Past MAX_HEADER_LINES
 * authentication is not run and the message is unauthenticated. Counted deterministically: the array elements
 * copied by Array.prototype.concat while one 30,000-line folded header is received.
 */
let listener: SmtpListener;
let address: string;

beforeAll(async () => {
  const seeded = await seedProject({ name: "Folded header" });
  address = await projectAddress(await getDb(), seeded.project.id);
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
});
afterAll(async () => {
  await listener.close();
});

describe("folded header", () => {
  it("receives a header folded over 30,000 lines in linear work", { timeout: 120_000 }, async () => {
    const lines = 30_000;
    const raw = `From: a@sender.example\r\nTo: ${address}\r\nSubject: folded\r\nMessage-ID: <folded@sender.example>\r\nX-Folded: a\r\n${" c\r\n".repeat(lines)}\r\nbody\r\n`;
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const realConcat = Array.prototype.concat;
    let copied = 0;
    Array.prototype.concat = function (this: unknown[], ...args: unknown[]) {
      const out = realConcat.apply(this, args as never);
      copied += out.length;
      return out;
    } as typeof Array.prototype.concat;
    let answer: string;
    try {
      answer = (await sendTo(listener.port, { envelope: { from: "a@sender.example", to: [address] }, raw: Buffer.from(raw) })).response;
    } catch (err) {
      answer = `${(err as { responseCode?: number }).responseCode} ${(err as Error).message}`;
    } finally {
      Array.prototype.concat = realConcat;
      log.mockRestore();
    }
    // Stored, or refused for good (5xx); never a 4xx that brings the same message back on every retry.
    expect(answer).toMatch(/^(250|55\d) /);
    // It was about 450 million.
    expect(copied).toBeLessThan(lines * 10);
    const [stored] = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.rfcMessageId, "folded@sender.example"));
    expect(stored.category).toBe("unauthenticated");
    expect(stored.authentication?.details).toMatch(/^brynth: the header has 5001 lines/);
  });
});
