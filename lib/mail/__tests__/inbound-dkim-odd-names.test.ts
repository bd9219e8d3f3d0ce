import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { authenticateMessage, MAX_DKIM_SIGNATURES } from "@/lib/mail/inbound/authenticate-message";

/**
 * mailauth names a field by what precedes its colon, trimmed as JavaScript trims (\v, \f and 0xA0 included), and
 * continues one on any white space. Counted with a narrower pattern, `DKIM-Signature\f:` slipped past the five-
 * signature cap, and every one was verified (found by helper-123).
 */
for (const sep of ["\f", "\v", "\xa0"]) {
  it(`caps DKIM signatures written as "DKIM-Signature${JSON.stringify(sep)}:"`, async () => {
    const body = "hi\r\n";
    const bh = createHash("sha256").update(body).digest("base64");
    const n = 50;
    const sigs = Array.from(
      { length: n },
      (_, i) => `DKIM-Signature${sep}: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.example; s=s${i}; h=from; bh=${bh}; b=AAAA`,
    );
    const raw = Buffer.from(`${sigs.join("\r\n")}\r\nFrom: a@attacker.example\r\nTo: support@example.com\r\nSubject: x\r\n\r\n${body}`, "latin1");
    let keyLookups = 0;
    const resolver = async (name: string) => {
      if (name.includes("._domainkey.")) keyLookups++;
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    };
    await authenticateMessage(raw, {
      ip: "198.51.100.7",
      helo: "mx.attacker.example",
      sender: "a@attacker.example",
      from: "a@attacker.example",
      resolver: resolver as never,
    });
    expect(keyLookups).toBeLessThanOrEqual(MAX_DKIM_SIGNATURES);
  });
}
