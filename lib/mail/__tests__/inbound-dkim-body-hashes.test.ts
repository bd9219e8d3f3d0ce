import { createRequire } from "node:module";
import { afterEach, expect, it, vi } from "vitest";
import { authenticateMessage } from "@/lib/mail/inbound/authenticate-message";

/**
 * mailauth keeps one body hasher per distinct (canonicalization, algorithm, l=) of a message's DKIM signatures, each
 * reading the body, synchronously: a sender giving each signature its own l= had the body hashed once per signature
 * (1,000 signatures over 100 KB stalled the event loop 3.1 s; a 25 MB message froze the process). Only the first
 * MAX_DKIM_SIGNATURES are verified (found by helper-116). Counted deterministically: the bytes fed to hashes
 * against the message's own size.
 */
const nodeCrypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
afterEach(() => vi.restoreAllMocks());

it("hashes an inbound message's body a bounded number of times, whatever its DKIM-Signature headers say", async () => {
  let hashed = 0;
  const real = nodeCrypto.createHash.bind(nodeCrypto);
  vi.spyOn(nodeCrypto, "createHash").mockImplementation(((algorithm: string, options?: object) => {
    const h = real(algorithm, options as never);
    const update = h.update.bind(h);
    h.update = ((data: string | Buffer, enc?: BufferEncoding) => {
      hashed += typeof data === "string" ? Buffer.byteLength(data, enc) : data.length;
      return enc ? update(data as string, enc) : update(data as Buffer);
    }) as typeof h.update;
    return h;
  }) as typeof nodeCrypto.createHash);

  const kb = 100;
  const body = `${"y".repeat(998)}\r\n`.repeat(kb);
  const sigs = Array.from(
    { length: 300 },
    (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.example; s=s; h=from; l=${kb * 1000 - i}; bh=AAAA; b=AAAA`,
  );
  const raw = Buffer.from(`${sigs.join("\r\n")}\r\nFrom: a@attacker.example\r\nSubject: x\r\n\r\n${body}`);
  const resolver = async (name: string) => {
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  await authenticateMessage(raw, {
    ip: "198.51.100.7",
    helo: "mx.attacker.example",
    sender: "a@attacker.example",
    from: "a@attacker.example",
    resolver: resolver as never,
  });
  // It was ~30 MB for this 141 KB message: the body 300 times.
  expect(hashed).toBeLessThan(20 * raw.length);
}, 60_000);
