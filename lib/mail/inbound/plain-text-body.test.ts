import { describe, expect, it } from "vitest";
import { parseMessage, parseWholeMessage } from "@/lib/mail/inbound/parse-message";
import { plainTextBody } from "@/lib/mail/inbound/plain-text-body";

const crlf = (s: string) => s.replace(/\r?\n/g, "\r\n");
const head = (extra: string) =>
  `From: Alice <alice@sender.example>\nTo: box@brynth.test, "Bob B." <bob@brynth.test>\nSubject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= and more\nMessage-ID: <m1@sender.example>\nIn-Reply-To: <p1@sender.example>\nReferences: <p0@sender.example> <p1@sender.example>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\nMIME-Version: 1.0\n${extra}`;
const lines = Array.from({ length: 300 }, (_, i) => `Line ${i} of a long message body, plain text.`).join("\n");

/** Messages mailparser needs not read whole: one part of UTF-8 or ASCII text, sent as is. */
const plain: Record<string, Buffer> = {
  "7bit UTF-8, 300 lines": Buffer.from(crlf(`${head("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 7bit\n")}\n${lines}\n`)),
  "8bit UTF-8 with non-ASCII text": Buffer.from(
    crlf(`${head("Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n")}\nGrüße, 日本語, emoji 🎉\n`),
  ),
  "invalid UTF-8 bytes": Buffer.concat([
    Buffer.from(crlf(`${head('Content-Type: text/plain; charset="utf-8"\n')}\n`)),
    Buffer.from([0xc3, 0x28, 0xff, 0x0d, 0x0a]),
  ]),
  "no Content-Type at all": Buffer.from(crlf(`${head("")}\nJust text.\n`)),
  "US-ASCII, folded Content-Type": Buffer.from(crlf(`${head("Content-Type: text/plain;\n charset=us-ascii\n")}\nHello.\n`)),
  "empty body": Buffer.from(crlf(`${head("Content-Type: text/plain\n")}\n`)),
  "no final line break, bare CR and LF in the body": Buffer.concat([
    Buffer.from(crlf(`${head("Content-Type: text/plain\n")}\n`)),
    Buffer.from("a\rb\nc\r\n\r\nd"),
  ]),
  "a quoted reply": Buffer.from(
    crlf(
      `${head("Content-Type: text/plain; charset=utf-8\n")}\nThanks.\n\nOn Tue, Dec 1, 2026 at 10:00 AM Alice <alice@sender.example> wrote:\n> ${lines.split("\n").join("\n> ")}\n`,
    ),
  ),
};

/** Messages that must go to mailparser whole. */
const other: Record<string, Buffer> = {
  // The type's pattern backtracked quadratically in these spaces: 1.5 s of event loop (found by helper-124).
  "a type padded with 30,000 spaces": Buffer.from(crlf(`${head(`Content-Type:  text/plain${" ".repeat(30_000)}x\n`)}\nbody\n`)),
  "format=flowed": Buffer.from(crlf(`${head("Content-Type: text/plain; charset=utf-8; format=flowed\n")}\nA soft \nbreak.\n`)),
  "quoted-printable": Buffer.from(
    crlf(`${head("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n")}\nGr=C3=BC=C3=9Fe=\n and more\n`),
  ),
  base64: Buffer.from(
    crlf(`${head("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n")}\n${Buffer.from("Hello in base64\n").toString("base64")}\n`),
  ),
  "ISO-8859-1": Buffer.concat([
    Buffer.from(crlf(`${head("Content-Type: text/plain; charset=iso-8859-1\n")}\n`)),
    Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65, 0x0d, 0x0a]),
  ]),
  "text/html": Buffer.from(crlf(`${head("Content-Type: text/html; charset=utf-8\n")}\n<p>Hello <b>there</b></p>\n`)),
  "an attachment by disposition": Buffer.from(crlf(`${head("Content-Type: text/plain\nContent-Disposition: attachment; filename=notes.txt\n")}\nnotes\n`)),
  "two Content-Types": Buffer.from(crlf(`${head("Content-Type: text/plain\nContent-Type: text/html\n")}\n<p>x</p>\n`)),
  "a comment in Content-Type": Buffer.from(crlf(`${head("Content-Type: text/plain (note); charset=utf-8\n")}\nx\n`)),
  "bare LF line ends": Buffer.from(`${head("Content-Type: text/plain\n")}\nLF only.\n`),
  "a header line without a colon": Buffer.from(crlf(`${head("Content-Type: text/plain\nnot a header; format=flowed\n")}\nx\n`)),
  multipart: Buffer.from(
    crlf(
      `${head('Content-Type: multipart/alternative; boundary="b1"\n')}\n--b1\nContent-Type: text/plain; charset=utf-8\n\nPlain part.\n--b1\nContent-Type: text/html; charset=utf-8\n\n<p>HTML part.</p>\n--b1--\n`,
    ),
  ),
  "no header block end": Buffer.from(crlf(head("Content-Type: text/plain"))),
};

describe("plain text fast path (parseMessage)", () => {
  it.each(Object.entries(plain))("reads %s without a MIME parse of the body, to the same result as mailparser", async (_, raw) => {
    expect(plainTextBody(raw)).not.toBeNull();
    const fast = await parseMessage(raw);
    expect(fast).toEqual(await parseWholeMessage(raw));
    expect(fast.parseError).toBeNull();
  });

  it.each(Object.entries(other))("gives %s to mailparser whole", async (_, raw) => {
    expect(plainTextBody(raw)).toBeNull();
    expect(await parseMessage(raw)).toEqual(await parseWholeMessage(raw));
  });

  it("reads the text, subject, addresses and ids of a plain message as mailparser does", async () => {
    const parsed = await parseMessage(plain["8bit UTF-8 with non-ASCII text"]);
    expect(parsed.text).toBe("Grüße, 日本語, emoji 🎉\n");
    expect(parsed.subject).toBe("Grüße and more");
    expect(parsed.to).toEqual(["box@brynth.test", "bob@brynth.test"]);
    expect(parsed.from).toEqual({ address: "alice@sender.example", name: "Alice" });
    expect(parsed.inReplyTo).toBe("p1@sender.example");
    expect(parsed.references).toEqual(["p0@sender.example", "p1@sender.example"]);
    expect((await parseMessage(plain["empty body"])).text).toBeNull();
  });
});
