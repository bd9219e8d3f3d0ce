import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dkimSign } from "mailauth";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";
import { addMailbox, messageByRfc } from "@/lib/mail/__tests__/mail-store-helpers";
import addressparser from "nodemailer/lib/addressparser";
import { fromDisagreement } from "@/lib/mail/inbound/from-agreement";
import { messageItemView } from "@/lib/mail/messages/message-view";
import { nameAddress } from "@/lib/mail/messages/name-address";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { seedProject } from "@/lib/testing/seed";

/**
 * DMARC stands for the From this instance shows, or for no one (found by helper-107). strict.example publishes
 * p=reject and lets only 192.0.2.1 send; sender.example, the attacker's own domain, lets 127.0.0.1 send (SPF pass).
 * Each message below was stored as normal mail from ceo@strict.example (or with text nobody signed as bank.example).
 */
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  seeded = await seedProject({ name: "From agreement" });
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    maxBytes: 64 * 1024,
    resolver: fakeResolver({
      "sender.example": "v=spf1 ip4:127.0.0.1 -all",
      "_dmarc.sender.example": "v=DMARC1; p=none",
      "strict.example": "v=spf1 ip4:192.0.2.1 -all",
      "_dmarc.strict.example": "v=DMARC1; p=reject",
      "xn--bcher-kva.example": "v=spf1 ip4:127.0.0.1 -all",
      "_dmarc.xn--bcher-kva.example": "v=DMARC1; p=reject",
      "bank.example": "v=spf1 ip4:192.0.2.1 -all",
      "_dmarc.bank.example": "v=DMARC1; p=reject",
      "s1._domainkey.bank.example": `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`,
    }),
    onError: () => {},
  });
});
afterAll(() => listener.close());

let n = 0;
async function receive(headers: string[], mailFrom = "attacker@sender.example", encoding: "utf8" | "latin1" = "utf8") {
  const mb = await addMailbox(seeded.project.id, `agree${++n}`);
  const id = `agree-${n}@sender.example`;
  const raw = Buffer.from(
    [...headers, `To: ${mb.address}`, "Subject: Wire the money", `Message-ID: <${id}>`, "", "Please wire it today.", ""].join("\r\n"),
    encoding,
  );
  await sendTo(listener.port, { envelope: { from: mailFrom, to: [mb.address] }, raw });
  return messageByRfc(mb.id, id);
}
const verdict = (m: Awaited<ReturnType<typeof receive>>) => ({ from: m.fromAddress, dmarc: m.authentication?.dmarc, category: m.category });

describe("the From DMARC vouches for", () => {
  it("is the From shown: a single sender passes or fails on its own domain", async () => {
    expect(verdict(await receive(["From: Me <me@sender.example>"]))).toEqual({ from: "me@sender.example", dmarc: "pass", category: "normal" });
    expect(verdict(await receive(["From: CEO <ceo@strict.example>"]))).toEqual({ from: "ceo@strict.example", dmarc: "fail", category: "unauthenticated" });
    // An IDN sender, in either spelling: mailparser shows it in Unicode, SPF asks DNS for the ASCII name.
    for (const from of ["info@bücher.example", "info@xn--bcher-kva.example"]) {
      const m = await receive([`From: Buch <${from}>`], "info@xn--bcher-kva.example");
      expect(verdict(m), m.authentication?.details).toEqual({ from: "info@bücher.example", dmarc: "pass", category: "normal" });
    }
  });

  it("is a Unicode domain spelt as IDNA spells it, in any case", () => {
    expect(fromDisagreement(["info@bücher.example"], "info@bücher.example")).toBeNull();
    expect(fromDisagreement(["Info@Bücher.Example"], "info@bücher.example")).toBeNull();
    expect(fromDisagreement(["info@xn--bcher-kva.example"], "info@xn--bcher-kva.example")).toBeNull();
    // mailparser shows an xn-- domain in Unicode; mailauth keeps it as written: one address.
    expect(fromDisagreement(["info@xn--bcher-kva.example"], "info@bücher.example")).toBeNull();
    expect(fromDisagreement(["info@bücher.example"], "info@xn--bcher-kva.example")).toBeNull();
    expect(fromDisagreement(["ceo@other.example"], "ceo@strict.example")).toMatch(/not the From that was authenticated/);
  });

  it("is nobody when From holds several addresses, in one header or two", async () => {
    for (const headers of [["From: CEO <ceo@strict.example>, attacker@sender.example"], ["From: CEO <ceo@strict.example>", "From: attacker@sender.example"]]) {
      const m = await receive(headers);
      expect(verdict(m)).toEqual({ from: "ceo@strict.example", dmarc: "fail", category: "unauthenticated" });
      expect(m.authentication?.details).toMatch(/^brynth: 2 From addresses: DMARC vouches for none of them/);
    }
  });

  it("is nobody when a From line is read two ways (led by a vertical tab, a form feed or 0xA0)", async () => {
    for (const lead of ["\x0b", "\x0c", "\xa0"]) {
      const m = await receive(["X-Mailer: x", `${lead}From: CEO <ceo@strict.example>`, "From: attacker@sender.example"], undefined, "latin1");
      expect(verdict(m)).not.toMatchObject({ dmarc: "pass", category: "normal" });
      expect(m.category).toBe("unauthenticated");
    }
  });

  it("is nobody when the domain is spelt with characters that stand for others", async () => {
    for (const domain of ["ｓｔｒｉｃｔ.example", "ſtrict.example", "strict\u200b.example"]) {
      const m = await receive([`From: CEO <ceo@${domain}>`]);
      expect({ dmarc: m.authentication?.dmarc, category: m.category }).toEqual({ dmarc: "fail", category: "unauthenticated" });
      expect(m.authentication?.details).toContain("brynth: the From domain is spelt with characters that stand for others (strict.example)");
    }
  });
});

describe("a DKIM signature with a body length (l=)", () => {
  async function signed(appended: string) {
    const mb = await addMailbox(seeded.project.id, `len${++n}`);
    const id = `len-${n}@bank.example`;
    const body = "Our monthly news.\r\n";
    const message = `From: Bank <news@bank.example>\r\nTo: ${mb.address}\r\nSubject: Monthly news\r\nMessage-ID: <${id}>\r\n\r\n${body}`;
    const sig = await dkimSign(message, {
      signingDomain: "bank.example",
      selector: "s1",
      privateKey: pem,
      signatureData: [{ signingDomain: "bank.example", selector: "s1", privateKey: pem, maxBodyLength: Buffer.byteLength(body) }],
    });
    await sendTo(listener.port, { envelope: { from: "attacker@sender.example", to: [mb.address] }, raw: `${sig.signatures}${message}${appended}` });
    return messageByRfc(mb.id, id);
  }

  it("passes when it covers the whole body", async () => {
    expect((await signed("")).authentication).toMatchObject({ dkim: "pass", dmarc: "pass" });
  });

  it("vouches for nothing appended after the signed length", async () => {
    const m = await signed("\r\nURGENT: our IBAN changed, wire today to XX00 ATTACKER.\r\n");
    expect(m.text).toContain("ATTACKER");
    expect({ dkim: m.authentication?.dkim, dmarc: m.authentication?.dmarc, category: m.category }).toEqual({
      dkim: "policy",
      dmarc: "fail",
      category: "unauthenticated",
    });
    expect(m.authentication?.details).toMatch(/^brynth: DMARC passed on a signature that leaves \d+ bytes of the body unsigned/);
  });
});

// A display name holding an address was written before `<address>` unquoted: every parser, and a reader, took the
// name's address for the sender's (found by helper-107).
describe("the From agents read", () => {
  it("quotes a display name that holds an address, so it parses as the sender it is", async () => {
    const m = await receive(['From: "CEO <ceo@strict.example>" <attacker@sender.example>']);
    expect(verdict(m)).toEqual({ from: "attacker@sender.example", dmarc: "pass", category: "normal" });
    const { from } = messageItemView(m, []);
    expect(from).toBe('"CEO <ceo@strict.example>" <attacker@sender.example>');
    expect(addressparser(from ?? "")).toEqual([{ name: "CEO <ceo@strict.example>", address: "attacker@sender.example" }]);
  });

  it("leaves a plain name as it is and escapes quotes and backslashes", () => {
    expect(nameAddress("Ada Lovelace", "ada@x.example")).toBe("Ada Lovelace <ada@x.example>");
    expect(nameAddress(null, "ada@x.example")).toBe("ada@x.example");
    expect(nameAddress('Say "hi" \\ bye', "a@x.example")).toBe('"Say \\"hi\\" \\\\ bye" <a@x.example>');
    expect(addressparser(nameAddress('Say "hi", <b@y.example>', "a@x.example"))).toEqual([{ name: 'Say "hi", <b@y.example>', address: "a@x.example" }]);
  });
});
