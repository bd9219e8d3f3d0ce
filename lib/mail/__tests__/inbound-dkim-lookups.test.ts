import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { authenticateMessage, MAX_DKIM_SIGNATURES, MAX_SIGNATURE_CHARS, signaturesToVerify } from "@/lib/mail/inbound/authenticate-message";

/**
 * Every DKIM signature whose bh= matches the body (trivial to compute) cost one key lookup, one after another, each
 * up to MAIL_DNS_TIMEOUT_MS on a name server the sender runs: 2,000 signatures made 2,002 lookups, and a 25 MB
 * message could keep authentication busy for days (found by helper-116). Only the first MAX_DKIM_SIGNATURES are
 * verified, and the others' bytes are left as they came.
 */
it("verifies a bounded number of DKIM signatures per message", async () => {
  const body = "hi\r\n";
  const bh = createHash("sha256").update(body).digest("base64");
  const n = 300;
  const sigs = Array.from(
    { length: n },
    (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.example; s=s${i}; h=from; bh=${bh}; b=AAAA`,
  );
  const raw = Buffer.from(`${sigs.join("\r\n")}\r\nFrom: a@attacker.example\r\nTo: support@example.com\r\nSubject: x\r\n\r\n${body}`);
  let keyLookups = 0;
  const resolver = async (name: string) => {
    if (name.includes("._domainkey.")) keyLookups++;
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
  const verdicts = await authenticateMessage(raw, {
    ip: "198.51.100.7",
    helo: "mx.attacker.example",
    sender: "a@attacker.example",
    from: "a@attacker.example",
    resolver: resolver as never,
  });
  expect(verdicts.dkim).not.toBe("pass");
  expect(keyLookups).toBe(MAX_DKIM_SIGNATURES);
});

it("keeps the first signatures, folded lines and all, and every other byte as it came", () => {
  const head = [
    "DKIM-Signature: v=1; d=a.example;\r\n\ts=one; b=AAAA",
    "Received: from x\r\n by y",
    "dkim-signature : v=1; d=b.example; s=two",
    "DKIM-Signature: v=1; d=c.example;\r\n s=three",
    "From: a@a.example",
  ];
  const raw = Buffer.from(`${head.join("\r\n")}\r\n\r\nDKIM-Signature: in the body\r\n`, "latin1");
  expect(signaturesToVerify(raw, 2, null).toString("latin1")).toBe(
    `${[head[0], head[1], head[2], head[4]].join("\r\n")}\r\n\r\nDKIM-Signature: in the body\r\n`,
  );
  expect(signaturesToVerify(raw, 3, null)).toBe(raw);
  // Bare LF line ends, and a header with no body at all.
  expect(signaturesToVerify(Buffer.from("DKIM-Signature: 1\nDKIM-Signature: 2\nFrom: x\n\nbody"), 1, null).toString()).toBe(
    "DKIM-Signature: 1\nFrom: x\n\nbody",
  );
  expect(signaturesToVerify(Buffer.from("DKIM-Signature: 1\r\nDKIM-Signature: 2\r\n"), 1, null).toString()).toBe("DKIM-Signature: 1\r\n");
});

it("counts a field as mailauth reads it, keeps From-aligned signatures first, and drops oversized ones", () => {
  // mailauth trims the name (\f, \v, 0xA0 included) and continues a field on any white space (found by helper-123).
  const odd = ["DKIM-Signature\f: d=x.example", "DKIM-Signature\v: d=y.example", "DKIM-Signature\xa0: d=z.example", "From: a@author.example"];
  expect(signaturesToVerify(Buffer.from(`${odd.join("\r\n")}\r\n\r\nb`, "latin1"), 1, null).toString("latin1")).toBe(`${odd[0]}\r\n${odd[3]}\r\n\r\nb`);
  const folded = "DKIM-Signature: d=a.example;\r\n\fs=one\r\nDKIM-Signature: d=b.example\r\n\r\nb";
  expect(signaturesToVerify(Buffer.from(folded, "latin1"), 1, null).toString("latin1")).toBe("DKIM-Signature: d=a.example;\r\n\fs=one\r\n\r\nb");
  // The author's signature sits below the hops' (found by helper-123: five forwarders pushed it out).
  const hops = Array.from({ length: 6 }, (_, i) => `DKIM-Signature: v=1; d=hop${i}.example; s=s`);
  const mail = `${hops.join("\r\n")}\r\nDKIM-Signature: v=1; d=mail.author.example; s=s\r\nFrom: a@author.example\r\n\r\nb`;
  const kept = signaturesToVerify(Buffer.from(mail), 2, "author.example").toString();
  expect(kept.match(/d=[\w.]+/g)).toEqual(["d=hop0.example", "d=mail.author.example"]);
  const huge = `DKIM-Signature: v=1; d=a.example; h=${"zz:".repeat(MAX_SIGNATURE_CHARS)}zz\r\nFrom: a@a.example\r\n\r\nb`;
  expect(signaturesToVerify(Buffer.from(huge), 5, null).toString()).toBe("From: a@a.example\r\n\r\nb");
});
