import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { domainToASCII } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { dkimSign } from "mailauth";
import { generateKeyPairSync } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { sources } from "@/lib/db/schema/events";
import { mailboxes, mailDomains, mailMessages } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { isLocalDomain } from "@/lib/mail/inbound/resolve-recipient";
import { getFile } from "@/lib/disk/get-file";
import { readMailBlob } from "@/lib/mail/mail-blob";
import { deleteMailbox } from "@/lib/mail/mailboxes/delete-mailbox";
import { updateMailbox } from "@/lib/mail/mailboxes/update-mailbox";
import { projectAddress } from "@/lib/mail/project-address";
import { recipientCache } from "@/lib/mail/inbound/recipient-cache";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { removeSource } from "@/lib/sources/remove-source";
import { SMTPConnection } from "./smtp-connection";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { envSettings } from "@/lib/testing/env-settings";
import { addEmailSource, fakeResolver, latestEvents, sendTo } from "@/lib/mail/__tests__/helpers";

/** The inbound listener, for real: nodemailer and raw sockets against smtp-server on a random port. */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;
let address: string;
let sourceAddress: string;
const errors: unknown[] = [];

// An outside sender that signs with DKIM; the fake DNS publishes its key.
const sender = generateKeyPairSync("rsa", { modulusLength: 2048 });
const senderTxt = `v=DKIM1; k=rsa; p=${sender.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

beforeAll(async () => {
  seeded = await seedProject({ name: "Support Desk" });
  sourceAddress = (await addEmailSource(seeded.actor)).address!;
  address = await projectAddress(await getDb(), seeded.project.id);
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    maxBytes: 64 * 1024,
    resolver: fakeResolver({
      "sel._domainkey.sender.example": senderTxt,
      "sender.example": "v=spf1 ip4:127.0.0.1 -all",
      "_dmarc.sender.example": "v=DMARC1; p=reject",
    }),
    onError: (err) => errors.push(err),
  });
});
afterAll(async () => {
  await listener.close();
});

/** Until the listener remembers `address` as accepted (its cache keeps nothing before its LISTEN is in place). */
const remembered = (address: string) =>
  expect.poll(async () => (await rcpt(address)).startsWith("250") && recipientCache.get(address) !== undefined).toBe(true);

/** The listener's answer to RCPT TO for `address`, on a connection of its own. */
async function rcpt(address: string): Promise<string> {
  const conn = new SMTPConnection(listener.port);
  await conn.open();
  await conn.cmd("EHLO test");
  await conn.cmd("MAIL FROM:<a@sender.example>");
  const answer = await conn.cmd(`RCPT TO:<${address}>`);
  await conn.close();
  return answer;
}

const countMessages = async () => (await (await getDb()).select({ n: count() }).from(mailMessages))[0].n;

describe("inbound SMTP", () => {
  it("gives the project a readable address on the mail domain", () => {
    expect(address).toBe("support-desk@brynth.localhost");
  });

  it("turns mail to the project address into an email.received event with fields, verdicts and attachments", async () => {
    await sendTo(listener.port, {
      from: '"Alice Example" <alice@sender.example>',
      to: address,
      cc: "bob@elsewhere.example",
      subject: "Invoice 1042",
      text: "Please find the invoice attached.",
      html: "<p>Please find the <b>invoice</b> attached.</p>",
      headers: { "List-Id": "<billing.sender.example>" },
      attachments: [
        { filename: "invoice.pdf", content: Buffer.from("%PDF-1.4 fake"), contentType: "application/pdf" },
        { filename: "../../etc/passwd", content: Buffer.from("root:x:0:0") },
        { filename: "invoice.pdf", content: Buffer.from("second copy") },
      ],
    });
    const [event] = await latestEvents(seeded.project.id, "email.received");
    expect(event.trust).toBe("external_untrusted");
    expect(event.source).toBe("email");
    const p = event.payload;
    expect(p).toMatchObject({
      address,
      from: "alice@sender.example",
      from_name: "Alice Example",
      to: [address],
      cc: ["bob@elsewhere.example"],
      subject: "Invoice 1042",
      auto_submitted: false,
      reply_to: null,
      authentication: { spf: "pass", dkim: "none", dmarc: "pass" },
    });
    expect(p.text).toContain("invoice attached");
    expect(p.html).toContain("<b>invoice</b>");
    expect(p.headers["list-id"]).toBe("<billing.sender.example>");
    expect(p.attachments.map((a: { name: string }) => a.name)).toEqual(["invoice.pdf", ".._.._etc_passwd", "invoice (2).pdf"]);

    // file_get reads the attachments as evt_…/name
    const file = await getFile(await getDb(), { actor: seeded.actor, path: `${event.id}/invoice.pdf` });
    expect("content_base64" in file && Buffer.from(file.content_base64, "base64").toString()).toBe("%PDF-1.4 fake");
    expect(file.content_type).toBe("application/pdf");
    const second = await getFile(await getDb(), { actor: seeded.actor, path: `${event.id}/invoice (2).pdf` });
    expect("content_base64" in second && Buffer.from(second.content_base64, "base64").toString()).toBe("second copy");
  });

  it("strips bidi controls from attachment names and keeps the extension of a 300-character name", async () => {
    const long = `${"r".repeat(296)}.pdf`;
    await sendTo(listener.port, {
      from: "alice@sender.example",
      to: address,
      subject: "Names",
      text: "see attached",
      attachments: [
        { filename: "invoice\u202Efdp.exe", content: Buffer.from("MZ") },
        { filename: "\u2066report\u2069\u200F\u061C.pdf", content: Buffer.from("%PDF") },
        { filename: long, content: Buffer.from("long one") },
        { filename: long, content: Buffer.from("long two") },
      ],
    });
    const [event] = await latestEvents(seeded.project.id, "email.received");
    const names = event.payload.attachments.map((a: { name: string }) => a.name);
    expect(names.slice(0, 2)).toEqual(["invoicefdp.exe", "report.pdf"]);
    expect(names[2]).toBe(`${"r".repeat(251)}.pdf`);
    expect(names[3]).toMatch(/^r+ \(2\)\.pdf$/);
    expect(Buffer.byteLength(names[3])).toBeLessThanOrEqual(255);
    const second = await getFile(await getDb(), { actor: seeded.actor, path: `${event.id}/${names[3]}` });
    expect("content_base64" in second && Buffer.from(second.content_base64, "base64").toString()).toBe("long two");
  });

  it("accepts mail at exactly the address the email source shows", async () => {
    await sendTo(listener.port, { from: "frank@sender.example", to: sourceAddress, subject: "Via the source address", text: "hi" });
    const [event] = await latestEvents(seeded.project.id, "email.received");
    expect(event.payload.subject).toBe("Via the source address");
    // Only that exact address: another local part at its domain is still refused.
    const domain = sourceAddress.slice(sourceAddress.indexOf("@") + 1);
    if (sourceAddress !== address) {
      await expect(sendTo(listener.port, { from: "a@sender.example", to: `other@${domain}`, subject: "x", text: "x" })).rejects.toMatchObject({
        responseCode: 550,
      });
    }
  });

  it("receives for a mailbox on an IDN domain however the address is spelled: xn--, Unicode, upper case", async () => {
    // smtp-server hands RCPT TO's domain over in Unicode whatever the client wrote, and the domain is stored as xn--:
    // before, every spelling was judged another's domain (550 relaying denied) and nothing could arrive.
    const db = await getDb();
    const unicode = `bücher-${Date.now()}.example`;
    const ascii = domainToASCII(unicode);
    const [domain] = await db
      .insert(mailDomains)
      .values({
        id: newId("dom"),
        projectId: seeded.project.id,
        domain: ascii,
        dkimSelector: "sel",
        dkimPrivateKeyEnc: "unused",
        dkimPublicKey: "unused",
        verifiedAt: new Date(),
      })
      .returning();
    const [box] = await db
      .insert(mailboxes)
      .values({ id: newId("mbx"), projectId: seeded.project.id, domainId: domain.id, localPart: "info", address: `info@${ascii}` })
      .returning();
    for (const spelling of [`info@${ascii}`, `info@${unicode}`, `INFO@${unicode.toUpperCase()}`]) expect(await rcpt(spelling), spelling).toMatch(/^250/);
    await sendTo(listener.port, { from: "a@sender.example", to: `info@${unicode}`, subject: "Für Bücher", text: "hi" });
    await expect
      .poll(async () => (await db.select().from(mailMessages).where(eq(mailMessages.mailboxId, box.id))).map((m) => m.subject))
      .toEqual(["Für Bücher"]);
    expect(await isLocalDomain(db, unicode)).toBe(true);
  });

  it("refuses relaying (550) and unknown mailboxes (550) at RCPT", async () => {
    await expect(sendTo(listener.port, { from: "a@sender.example", to: "someone@gmail.com", subject: "x", text: "x" })).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(sendTo(listener.port, { from: "a@sender.example", to: "nobody@brynth.localhost", subject: "x", text: "x" })).rejects.toMatchObject({
      responseCode: 550,
    });
  });

  it("refuses a mailbox at RCPT from the moment it is disabled or deleted, and accepts it again once re-enabled", async () => {
    const box = await seedMailbox(seeded.project.id);
    const send = (subject: string) => sendTo(listener.port, { from: "a@sender.example", to: box.address, subject, text: "x" });
    await send("accepted");
    await remembered(box.address);
    await updateMailbox(await getDb(), { actor: seeded.actor, inboxId: box.id, status: "disabled" });
    expect(await rcpt(box.address)).toMatch(/^550/);
    await updateMailbox(await getDb(), { actor: seeded.actor, inboxId: box.id, status: "active" });
    await send("active again");
    await deleteMailbox(await getDb(), { actor: seeded.actor, inboxId: box.id });
    expect(await rcpt(box.address)).toMatch(/^550/);
  });

  it("refuses an old email source's own address at RCPT from the moment the source is removed", async () => {
    const legacy = await seedProject({ name: "Legacy alias" });
    const source = await addEmailSource(legacy.actor);
    const alias = `legacy-${Date.now()}@brynth.localhost`;
    const db = await getDb();
    // A source made before the events module took its address from projectAddress: its own address is an alias.
    await db.update(sources).set({ address: alias }).where(eq(sources.id, source.id));
    await sendTo(listener.port, { from: "a@sender.example", to: alias, subject: "accepted", text: "x" });
    await remembered(alias);
    await db.transaction((tx) => removeSource(tx, { actor: legacy.actor, name: source.name }));
    expect(await rcpt(alias)).toMatch(/^550/);
  });

  it("refuses a message over the size limit with 552 and stores nothing", async () => {
    const before = await countMessages();
    await expect(sendTo(listener.port, { from: "a@sender.example", to: address, subject: "big", text: "x".repeat(100 * 1024) })).rejects.toMatchObject({
      responseCode: 552,
    });
    expect(await countMessages()).toBe(before);
  });

  it("ignores a forged Authentication-Results header and verifies DKIM itself", async () => {
    await sendTo(listener.port, {
      from: "mallory@sender.example",
      to: address,
      subject: "Trust me",
      text: "forged",
      headers: { "Authentication-Results": "mx.brynth.localhost; dkim=pass header.d=sender.example; spf=pass; dmarc=pass" },
      envelope: { from: "mallory@evil.example", to: [address] },
    });
    const [forged] = await latestEvents(seeded.project.id, "email.received");
    expect(forged.payload.subject).toBe("Trust me");
    expect(forged.payload.authentication).toEqual({ spf: "none", dkim: "none", dmarc: "fail" });
    expect(forged.payload.headers["authentication-results"]).toBeUndefined();

    const raw = Buffer.from(
      `From: Carol <carol@sender.example>\r\nTo: ${address}\r\nSubject: Signed\r\nMessage-ID: <signed-1@sender.example>\r\nDate: ${new Date().toUTCString()}\r\n\r\nSigned body.\r\n`,
    );
    const sig = await dkimSign(raw, {
      signingDomain: "sender.example",
      selector: "sel",
      privateKey: sender.privateKey.export({ type: "pkcs8", format: "pem" }) as string,
      signatureData: [{ signingDomain: "sender.example", selector: "sel", privateKey: sender.privateKey.export({ type: "pkcs8", format: "pem" }) as string }],
    });
    await sendTo(listener.port, { envelope: { from: "carol@sender.example", to: [address] }, raw: Buffer.concat([Buffer.from(sig.signatures), raw]) });
    const [signed] = await latestEvents(seeded.project.id, "email.received");
    expect(signed.payload.subject).toBe("Signed");
    expect(signed.payload.authentication).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass" });
  });

  it("flags Auto-Submitted mail and threads replies by In-Reply-To / References", async () => {
    await sendTo(listener.port, {
      from: "robot@sender.example",
      to: address,
      subject: "Out of office",
      text: "I am away",
      messageId: "<ooo-1@sender.example>",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    const [auto] = await latestEvents(seeded.project.id, "email.received");
    expect(auto.payload.auto_submitted).toBe(true);

    await sendTo(listener.port, { from: "dave@sender.example", to: address, subject: "Question", text: "?", messageId: "<q-1@sender.example>" });
    await sendTo(listener.port, {
      from: "dave@sender.example",
      to: address,
      subject: "Re: Question",
      text: "!",
      messageId: "<q-2@sender.example>",
      inReplyTo: "<q-1@sender.example>",
      references: ["<q-1@sender.example>"],
    });
    await sendTo(listener.port, {
      from: "erin@sender.example",
      to: address,
      subject: "Re: Question",
      text: "+1",
      messageId: "<q-3@sender.example>",
      references: ["<q-1@sender.example>", "<q-2@sender.example>"],
    });
    const [third, second, first] = await latestEvents(seeded.project.id, "email.received");
    expect(first.payload.thread_id).toBeTruthy();
    expect(second.payload.thread_id).toBe(first.payload.thread_id);
    expect(third.payload.thread_id).toBe(first.payload.thread_id);
    expect(first.payload.auto_submitted).toBe(false);
  });

  it("stores a malformed MIME message raw, parses what it can, and keeps serving", async () => {
    const raw = Buffer.from(
      [
        `From: broken@sender.example`,
        `To: ${address}`,
        `Subject: Broken structure`,
        `Message-ID: <broken-1@sender.example>`,
        `MIME-Version: 1.0`,
        `Content-Type: multipart/mixed; boundary="never-closed"`,
        ``,
        `--never-closed`,
        `Content-Type: text/plain; charset=utf-8`,
        `Content-Transfer-Encoding: base64`,
        ``,
        `!!!not base64 at all!!!`,
        `--never-closed`,
        `Content-Type: application/octet-stream; name="half.bin"`,
        `Content-Disposition: attachment; filename*=utf-8''%E2%82%AC%ZZ`,
        `Content-Transfer-Encoding: quoted-printable`,
        ``,
        `=ZZ=0`,
        `\u0000\u0001 binary junk \xff\xfe`,
        ``,
      ].join("\r\n"),
      "latin1",
    );
    await sendTo(listener.port, { envelope: { from: "broken@sender.example", to: [address] }, raw });
    const db = await getDb();
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.rfcMessageId, "broken-1@sender.example"));
    expect(row.subject).toBe("Broken structure");
    expect(row.fromAddress).toBe("broken@sender.example");
    expect((await readMailBlob(row.rawBlobKey!)).equals(raw)).toBe(true);
    const [event] = await latestEvents(seeded.project.id, "email.received");
    expect(event.payload.subject).toBe("Broken structure");

    // The listener still serves the next message.
    await sendTo(listener.port, { from: "after@sender.example", to: address, subject: "Still alive", text: "ok" });
    expect((await latestEvents(seeded.project.id, "email.received"))[0].payload.subject).toBe("Still alive");
  });

  it("stores mail whose UTF-16 text and subject hold lone surrogates, with U+FFFD in their place", async () => {
    // A high surrogate with no low one after it: the decoders hand JavaScript a string Postgres cannot take as JSON.
    const lone = (text: string) => Buffer.concat([Buffer.from([0x00, 0xd8]), Buffer.from(text, "utf16le")]);
    const raw = Buffer.from(
      [
        `From: odd@sender.example`,
        `To: ${address}`,
        `Subject: =?UTF-16LE?B?${lone("subject").toString("base64")}?=`,
        `Message-ID: <lone-1@sender.example>`,
        `MIME-Version: 1.0`,
        `Content-Type: text/plain; charset=utf-16le`,
        `Content-Transfer-Encoding: base64`,
        ``,
        lone("body text").toString("base64"),
        ``,
      ].join("\r\n"),
    );
    await sendTo(listener.port, { envelope: { from: "odd@sender.example", to: [address] }, raw });
    const [row] = await (await getDb()).select().from(mailMessages).where(eq(mailMessages.rfcMessageId, "lone-1@sender.example"));
    expect(row.subject).toBe("\uFFFDsubject");
    expect(row.text).toBe("\uFFFDbody text");
    const [event] = await latestEvents(seeded.project.id, "email.received");
    expect(event.payload.subject).toBe("\uFFFDsubject");
  });

  it("survives garbage sessions and a failing handler (451, then the next message goes through)", async () => {
    await new Promise<void>((resolve) => {
      const s = connect(listener.port, "127.0.0.1", () => {
        s.write("EHLO x\r\nMAIL FROM:<<<>>>\r\nRCPT TO:\r\n\x00\x01\x02garbage\r\nDATA\r\n.\r\nBDAT 99999999\r\n");
        setTimeout(() => s.destroy(), 100);
      });
      s.on("close", () => resolve());
      s.on("error", () => resolve());
    });

    // A store that fails (the blob store's directory cannot be made: a file is in its way): a temporary error.
    const dataDir = envSettings("DATA_DIR");
    const blocked = mkdtempSync(join(tmpdir(), "brynth-no-blobs-"));
    writeFileSync(join(blocked, "blobs"), "not a directory");
    dataDir.set({ DATA_DIR: blocked });
    const conn = new SMTPConnection(listener.port);
    await conn.open();
    await conn.cmd("EHLO test");
    await conn.cmd("MAIL FROM:<x@sender.example>");
    expect(await conn.cmd(`RCPT TO:<${address}>`)).toMatch(/^250/);
    expect(await conn.cmd("DATA")).toMatch(/^354/);
    expect(await conn.cmd(`Subject: lost\r\n\r\nbody\r\n.`)).toMatch(/^451/);
    dataDir.restore();
    expect(errors.length).toBeGreaterThan(0);

    // A mailbox accepted at RCPT that is deleted before DATA: nothing is stored, and the sender is told so.
    const other = await seedProject({ name: "Short lived" });
    const db = await getDb();
    const gone = await projectAddress(db, other.project.id);
    await conn.cmd("MAIL FROM:<x@sender.example>");
    expect(await conn.cmd(`RCPT TO:<${gone}>`)).toMatch(/^250/);
    await db.update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.address, gone));
    expect(await conn.cmd("DATA")).toMatch(/^354/);
    // Before: 250, and the message stored in the deleted mailbox, its event sent to webhooks and streams.
    expect(await conn.cmd(`Subject: lost too\r\n\r\nbody\r\n.`)).toMatch(/^550 5\.1\.1/);
    await conn.close();
    expect(await db.select().from(mailMessages).where(eq(mailMessages.subject, "lost too"))).toEqual([]);

    await sendTo(listener.port, { from: "later@sender.example", to: address, subject: "After the failure", text: "ok" });
    expect((await latestEvents(seeded.project.id, "email.received"))[0].payload.subject).toBe("After the failure");
  });
});
