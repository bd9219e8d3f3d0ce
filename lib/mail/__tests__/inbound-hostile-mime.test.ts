import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailAttachments } from "@/lib/db/schema/mail";
import { readMailBlob } from "@/lib/mail/mail-blob";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";
import { addMailbox, messageByRfc, messagesOf, threadOf } from "@/lib/mail/__tests__/mail-store-helpers";

/**
 * Malformed and hostile MIME through the real listener (nodemailer handing over raw bytes): each message is either
 * refused cleanly or stored whole — raw bytes, row, thread — and never answered 451 for good, never left hanging.
 */
let listener: SmtpListener;
let seeded: Awaited<ReturnType<typeof seedProject>>;
const errors: unknown[] = [];

beforeAll(async () => {
  seeded = await seedProject({ name: "Hostile MIME" });
  listener = await startSmtpListener({
    port: 0,
    host: "127.0.0.1",
    resolver: fakeResolver({ "sender.example": "v=spf1 ip4:127.0.0.1 -all" }),
    onError: (err) => errors.push(err),
  });
});
afterAll(async () => {
  await listener.close();
});
beforeEach(() => {
  errors.length = 0;
});

const mailbox = (local: string) => addMailbox(seeded.project.id, local);

/** Hands `raw` to the listener as is; resolves with the final reply (250 …, or the refusal's code and text). */
async function deliver(to: string, raw: string, from = "a@sender.example"): Promise<string> {
  try {
    return (await sendTo(listener.port, { envelope: { from, to: [to] }, raw: Buffer.from(raw, "latin1") })).response;
  } catch (err) {
    const e = err as { responseCode?: number; message: string };
    return `${e.responseCode} ${e.message}`;
  }
}

const head = (to: string, id: string, subject = "Hostile") =>
  [`From: a@sender.example`, `To: ${to}`, `Subject: ${subject}`, `Message-ID: <${id}>`, `Date: ${new Date().toUTCString()}`].join("\r\n");

describe("hostile MIME", () => {
  // A NUL survived into mail_attachments.content_id; Postgres refused the row, so every attempt was answered 451.
  it("stores a message whose attachment's Content-ID holds a NUL, without that Content-ID", async () => {
    const mb = await mailbox("nul-cid");
    const raw = [
      head(mb.address, "nul-cid@sender.example"),
      "MIME-Version: 1.0",
      'Content-Type: multipart/related; boundary="b"',
      "",
      "--b",
      "Content-Type: text/html",
      "",
      '<p>logo: <img src="cid:logo\u0000x"></p>',
      "--b",
      "Content-Type: image/png",
      "Content-ID: <logo\u0000x>",
      "Content-Disposition: inline; filename=logo.png",
      "",
      "PNG",
      "--b",
      "Content-Type: image/png",
      "Content-ID: <good@sender.example>",
      "Content-Disposition: inline; filename=good.png",
      "",
      "PNG",
      "--b--",
      "",
    ].join("\r\n");
    expect(await deliver(mb.address, raw)).toMatch(/^250/);
    const row = await messageByRfc(mb.id, "nul-cid@sender.example");
    const files = await (await getDb()).select().from(mailAttachments).where(eq(mailAttachments.messageId, row.id));
    expect(files.map((f) => [f.name, f.contentId]).sort()).toEqual([
      ["good.png", "good@sender.example"],
      ["logo.png", null],
    ]);
    expect(errors).toEqual([]);
  });

  // mailparser gives up on a header block over its limit; the hand-read fallback kept a NUL in the From and To
  // addresses, which Postgres refused (text and jsonb), so every attempt was answered 451.
  it("stores a message only the fallback parser reads whose From and To hold a NUL", async () => {
    const mb = await mailbox("nul-fallback");
    const raw = [
      `From: a\u0000b@sender.example`,
      `To: c\u0000d@sender.example, ${mb.address}`,
      `Cc: e\u0000f@sender.example`,
      "Subject: Fallback",
      "Message-ID: <nul-fallback@sender.example>",
      `X-Padding: ${"p".repeat(3_000_000)}`,
      "",
      "body",
      "",
    ].join("\r\n");
    expect(await deliver(mb.address, raw)).toMatch(/^250/);
    const row = await messageByRfc(mb.id, "nul-fallback@sender.example");
    expect(row).toMatchObject({ subject: "Fallback", fromAddress: "ab@sender.example", to: ["cd@sender.example", mb.address], cc: ["ef@sender.example"] });
    expect(row.parseError).toBeTruthy();
    expect(errors).toEqual([]);
  });

  // Found by helper-100: the fallback took the first `x@y` anywhere in From, so a quoted display name became the
  // sender, beside a DMARC pass earned by the real address. 1,001 parts is one way any sender reaches the fallback.
  it("reads From in the fallback as mailauth does: a display name that looks like an address is not the sender", async () => {
    const mb = await mailbox("fallback-from");
    const parts = Array.from({ length: 1001 }, (_, i) => `--b\r\nContent-Type: application/octet-stream\r\n\r\n${i}`).join("\r\n");
    const raw = [
      `From: "ceo@corp.example" <evil@attacker.example>`,
      `To: "${mb.address}" <${mb.address}>, "x@y.example" <other@sender.example>`,
      // Decoded from the header block alone (note-36: the fallback showed the encoded word).
      `Subject: =?UTF-8?B?${Buffer.from("Überweisung heute").toString("base64")}?=`,
      "Message-ID: <fallback-from@sender.example>",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      parts,
      "--b--",
      "",
    ].join("\r\n");
    expect(await deliver(mb.address, raw)).toMatch(/^250/);
    const row = await messageByRfc(mb.id, "fallback-from@sender.example");
    expect(row.parseError).toBeTruthy();
    expect(row).toMatchObject({ fromAddress: "evil@attacker.example", to: [mb.address, "other@sender.example"], subject: "Überweisung heute" });
    expect(errors).toEqual([]);
  });

  // Every id was stored: a message of 1,000,000 ids was one 20 MB jsonb row and as many GIN entries, 14 s inside
  // the commit it shares with other mail.
  it("keeps the root and the newest 49 of 20,000 References, and threads by the newest", async () => {
    const mb = await mailbox("refs");
    expect(await deliver(mb.address, `${head(mb.address, "parent@sender.example", "Plan")}\r\n\r\nfirst\r\n`)).toMatch(/^250/);
    const junk = Array.from({ length: 20_000 }, (_, i) => `<junk-${i}@elsewhere.example>`);
    const refs = ["<root@sender.example>", ...junk, "<parent@sender.example>"].join("\r\n ");
    const reply = `${head(mb.address, "child@sender.example", "Re: Plan")}\r\nIn-Reply-To: <parent@sender.example>\r\nReferences: ${refs}\r\n\r\nsecond\r\n`;
    expect(await deliver(mb.address, reply)).toMatch(/^250/);

    const parent = await messageByRfc(mb.id, "parent@sender.example");
    const child = await messageByRfc(mb.id, "child@sender.example");
    expect(child.references).toHaveLength(50);
    expect(child.references[0]).toBe("root@sender.example");
    expect(child.references.slice(-2)).toEqual(["junk-19999@elsewhere.example", "parent@sender.example"]);
    expect(child.threadId).toBe(parent.threadId);
    expect((await threadOf(parent.threadId)).messageCount).toBe(2);
  });

  // Threading compared the whole subject with the stored one, cut to 2,000 characters: a reply never matched.
  it("threads a reply to a subject longer than the 2,000 characters stored", async () => {
    const mb = await mailbox("long-subject");
    const long = `Plan ${"x".repeat(3_000)}`;
    expect(
      await deliver(
        mb.address,
        `${head(mb.address, "long-root@sender.example", long)}

first
`,
      ),
    ).toMatch(/^250/);
    const reply = `${head(mb.address, "long-reply@sender.example", `Re: ${long}`)}
In-Reply-To: <long-root@sender.example>

second
`;
    expect(await deliver(mb.address, reply)).toMatch(/^250/);
    const root = await messageByRfc(mb.id, "long-root@sender.example");
    expect(root.subject).toHaveLength(2_000);
    expect((await messageByRfc(mb.id, "long-reply@sender.example")).threadId).toBe(root.threadId);
  });

  // The extraction runs in the listener's process: four minutes of backtracking stalled every connection.
  it("stores a 1 MB line of 'On ' whole as its own extracted text", { timeout: 30_000 }, async () => {
    const mb = await mailbox("on-line");
    const text = "On ".repeat(350_000);
    expect(await deliver(mb.address, `${head(mb.address, "on-line@sender.example")}\r\n\r\n${text}\r\n`)).toMatch(/^250/);
    const row = await messageByRfc(mb.id, "on-line@sender.example");
    expect(row.extractedText).toBe(text.trim());
    expect(row.preview).toHaveLength(200);
  });

  it("stores what held up: empty and header-only messages, null sender, 2,000-deep multiparts, bad charsets and encodings", async () => {
    const mb = await mailbox("held");
    let nested = "";
    for (let i = 0; i < 2000; i++) nested += `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n`;
    const cases: Array<[string, string, string?]> = [
      ["empty", ""],
      ["header-only", head(mb.address, "header-only@sender.example")],
      ["null-sender", `${head(mb.address, "null-sender@sender.example")}\r\n\r\nbounce-ish\r\n`, ""],
      ["deep", `${head(mb.address, "deep@sender.example")}\r\nMIME-Version: 1.0\r\n${nested}Content-Type: text/plain\r\n\r\ndeep\r\n`],
      [
        "charset",
        `${head(mb.address, "charset@sender.example")}\r\nContent-Type: text/plain; charset=x-no-such\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!@@@\r\n`,
      ],
      [
        "qp",
        `${head(mb.address, "qp@sender.example")}\r\nContent-Type: text/plain; charset=utf-7\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=\r\n=0\r\n`,
      ],
      ["crlf-word", `${head(mb.address, "crlf-word@sender.example", "=?utf-8?Q?a=0D=0ABcc:_evil@x.example?=")}\r\n\r\nx\r\n`],
      [
        "unterminated",
        `${head(mb.address, "unterminated@sender.example")}\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nopen`,
      ],
    ];
    for (const [name, raw, from] of cases) expect([name, await deliver(mb.address, raw, from)]).toEqual([name, expect.stringMatching(/^250/)]);

    const rows = await messagesOf(mb.id);
    expect(rows).toHaveLength(cases.length);
    for (const row of rows) expect(row.rawBlobKey).toBeTruthy();
    expect((await readMailBlob(rows[0].rawBlobKey!)).byteLength).toBeLessThanOrEqual(2);
    expect(await messageByRfc(mb.id, "null-sender@sender.example")).toMatchObject({ fromAddress: "a@sender.example" });
    expect((await messageByRfc(mb.id, "deep@sender.example")).parseError).toBeTruthy();
    // The encoded CR LF stays inside the subject: it is one line of text, never a header of its own.
    expect((await messageByRfc(mb.id, "crlf-word@sender.example")).subject).toBe("a\r\nBcc: evil@x.example");
    expect((await messageByRfc(mb.id, "unterminated@sender.example")).text).toContain("open");
    expect(errors).toEqual([]);
  });
});
