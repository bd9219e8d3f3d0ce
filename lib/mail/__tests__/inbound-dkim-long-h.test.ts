import { expect, it } from "vitest";
import { authenticateMessage } from "@/lib/mail/inbound/authenticate-message";

/**
 * mailauth scans every header field for each name of a signature's h= list, before any DNS lookup and whatever its
 * bh=: one signature naming 120,000 headers over 4,000 header lines held the event loop 5-8 s (found by helper-124).
 * A signature longer than MAX_SIGNATURE_CHARS is not verified at all: its key is never looked up.
 */
it("a DKIM-Signature with a 120,000-name h= list is not verified", async () => {
  const lookups: string[] = [];
  const resolver = async (name: string) => {
    lookups.push(name);
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  const pad = Array.from({ length: 4000 }, (_, i) => `X-P${i}: 1`).join("\r\n");
  const raw = Buffer.from(
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.example; s=s1; h=${"zz:".repeat(120_000)}from; bh=AAAA; b=AAAA\r\n${pad}\r\n` +
      "From: a@attacker.example\r\nTo: support@example.com\r\nSubject: x\r\n\r\nhi\r\n",
  );
  const verdicts = await authenticateMessage(raw, {
    ip: "198.51.100.7",
    helo: "mx.attacker.example",
    sender: "a@attacker.example",
    from: "a@attacker.example",
    resolver: resolver as never,
  });
  expect(verdicts.dkim).toBe("none");
  expect(lookups.filter((n) => n.includes("._domainkey."))).toEqual([]);
}, 60_000);
