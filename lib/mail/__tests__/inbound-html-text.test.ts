import * as htmlToTextModule from "html-to-text";
import { describe, expect, it, vi } from "vitest";
import { parseMessage } from "@/lib/mail/inbound/parse-message";

/**
 * The text of mail that has only HTML is derived once, bounded (html-text.ts). mailparser converted every HTML part
 * on the event loop, each up to 2 MB: four 1.9 MB parts held it 8-16 s. And `<blockquote>` 600 deep around 4,000
 * lines made 4.8 MB of `> ` prefixes from 27 KB of HTML (found by helper-124). Counted deterministically: the size
 * of the text, and how many conversions run.
 */
const msg = (contentType: string, body: string) =>
  Buffer.from(
    `From: a@sender.example\r\nTo: box@brynth.test\r\nMessage-ID: <m1@sender.example>\r\nSubject: s\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: ${contentType}\r\n\r\n${body}\r\n`,
  );

vi.mock("html-to-text", { spy: true });

describe("the text of HTML mail", () => {
  it("is html-to-text's for ordinary HTML, as mailparser gave it", async () => {
    const parsed = await parseMessage(msg("text/html; charset=utf-8", "<p>Hello <b>there</b></p><blockquote><p>older</p></blockquote>"));
    expect(parsed.text).toBe("Hello there\n\n> older");
  });

  it("of quotes nested 600 deep is the words, no bigger than the HTML", async () => {
    const html = "<blockquote>".repeat(600) + "a<br>".repeat(4000);
    const parsed = await parseMessage(msg("text/html; charset=utf-8", html));
    // It was 4.8 MB.
    expect(parsed.text!.length).toBeLessThan(html.length);
    expect(parsed.text).toMatch(/^a\s+a/);
  });

  it("converts one HTML text per message, however many HTML parts it has", async () => {
    const convert = vi.mocked(htmlToTextModule.htmlToText);
    convert.mockClear();
    const part = (n: number) => `--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>part ${n}</p>\r\n`;
    const parsed = await parseMessage(msg('multipart/mixed; boundary="b"', `${[1, 2, 3, 4].map(part).join("")}--b--`));
    expect(parsed.html).toContain("part 4");
    expect(parsed.text).toContain("part 1");
    expect(convert.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
