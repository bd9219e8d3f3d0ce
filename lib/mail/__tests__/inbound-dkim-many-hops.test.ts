import { generateKeyPairSync } from "node:crypto";
import { dkimSign } from "mailauth/lib/dkim/sign";
import { describe, expect, it } from "vitest";
import { authenticateMessage } from "@/lib/mail/inbound/authenticate-message";
import { fakeResolver } from "@/lib/mail/__tests__/helpers";

/**
 * Genuine mail through several signing hops (forwarders, lists, gateways): the author's signature is the lowest. With
 * only the topmost five verified, a sixth signature pushed it out and mail from a p=reject domain failed DMARC
 * (found by helper-123). Signatures aligned with From are kept first.
 */
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const pub = publicKey.export({ type: "spki", format: "der" }).toString("base64");

async function sign(raw: Buffer, d: string, s: string) {
  const r = await dkimSign(raw, {
    signingDomain: d,
    selector: s,
    privateKey: pem,
    signatureData: [{ signingDomain: d, selector: s, privateKey: pem, canonicalization: "relaxed/relaxed" }],
  });
  return Buffer.concat([Buffer.from(r.signatures), raw]);
}

const txt: Record<string, string> = { "d0.example": "v=spf1 -all", "_dmarc.d0.example": "v=DMARC1; p=reject" };
for (let i = 0; i < 8; i++) txt[`s${i}._domainkey.d${i}.example`] = `v=DKIM1; k=rsa; p=${pub}`;

describe.each(["\r\n", "\n"])("line ends %j", (eol) => {
  it.each([5, 6])("the author's valid signature under %i signatures in all keeps DMARC passing", async (n) => {
    let raw = Buffer.from(["From: a@d0.example", "To: b@x.example", "Subject: hi", "Message-ID: <m@d0.example>", "", "hello", ""].join(eol));
    for (let i = 0; i < n; i++) raw = await sign(raw, `d${i}.example`, `s${i}`);
    const v = await authenticateMessage(raw, {
      ip: "198.51.100.1",
      helo: "mx.d0.example",
      sender: "a@d0.example",
      from: "a@d0.example",
      resolver: fakeResolver(txt),
    });
    expect(v.dmarc).toBe("pass");
  });
});
