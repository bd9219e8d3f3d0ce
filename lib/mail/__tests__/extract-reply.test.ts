import { describe, expect, it } from "vitest";
import { extractHtml } from "@/lib/mail/extract/extract-html";
import { extractReply } from "@/lib/mail/extract/extract-reply";
import { makePreview } from "@/lib/mail/extract/make-preview";
import { extractText } from "@/lib/mail/extract/extract-text";
import { baseSubject } from "@/lib/mail/inbound/base-subject";
import { listCandidates, listVerdict } from "@/lib/mail/inbound/list-verdict";
import { cleanId, idList } from "@/lib/mail/inbound/parse-message";
import { gmailHtml, gmailText, outlookHtml } from "@/lib/mail/__tests__/reply-fixtures";

describe("reply extraction", () => {
  it("keeps a Gmail reply's answer and drops the signature line, the attribution and the quote", () => {
    const r = extractReply({ text: gmailText, html: gmailHtml }, { keepWhole: false });
    expect(r.extractedText).toBe("Thursday at 2pm works for me.");
    expect(r.extractedHtml).toBe('<div dir="ltr">Thursday at <b>2pm</b> works for me.</div><br>');
    expect(r.preview).toBe("Thursday at 2pm works for me.");
  });

  it("cuts an Outlook HTML reply at #appendonsend and closes what was open, styles and entities as they came", () => {
    const html = extractHtml(outlookHtml, { keepWhole: false })!;
    expect(html).toBe(
      '<html><head><style>p { margin: 0 } a > b { color: red }</style></head><body><div style="font-family: Calibri">' +
        '<p>Yes, send the contract &amp; the invoice.</p><p title="say &quot;hi&quot;">Regards, Bob</p></div></body></html>',
    );
    expect(html).not.toContain("secret");
  });

  it("cuts at each quote container, dropping the <hr> Outlook puts before #divRplyFwdMsg, and closes open tags", () => {
    const cut = (h: string) => extractHtml(h, { keepWhole: false });
    expect(cut('<div><p>Answer</p><hr> <div id="divRplyFwdMsg">old</div></div>')).toBe("<div><p>Answer</p></div>");
    expect(cut('<p>A<blockquote type="cite">old</blockquote></p>')).toBe("<p>A</p>");
    expect(cut('<div><span>A</span><div class="moz-cite-prefix">On … wrote:</div><blockquote>x</blockquote>')).toBe("<div><span>A</span></div>");
    expect(cut('<table><tr><td>A<div class="yahoo_quoted">old</div></td></tr></table>')).toBe("<table><tr><td>A</td></tr></table>");
    expect(cut('<div>A<hr id="stopSpelling">old</div>')).toBe("<div>A</div>");
    // No quote: the message as it was (unclosed tags closed), a blockquote that is not a citation kept.
    expect(cut("<p>Hello <i>there")).toBe("<p>Hello <i>there</i></p>");
    expect(cut("<blockquote>a quote of my own</blockquote>")).toBe("<blockquote>a quote of my own</blockquote>");
  });

  it("keeps bounces and auto-submitted mail whole", () => {
    const r = extractReply({ text: gmailText, html: gmailHtml }, { keepWhole: true });
    expect(r.extractedText).toBe(gmailText);
    expect(r.extractedHtml).toBe(gmailHtml);
  });

  it("removes a long quote (its lines collapsed before parsing) and judges a long text by its first 60 lines", () => {
    const lines = (n: number, prefix = "") => Array.from({ length: n }, (_, i) => `${prefix}Line ${i} of a long message.`).join("\n");
    const reply = `Fine with me.\n\nOn Tue, Dec 1, 2026 at 10:00 AM Alice <alice@sender.example> wrote:\n${lines(400, "> ")}`;
    expect(extractReply({ text: reply, html: null }, { keepWhole: false }).extractedText).toBe("Fine with me.");
    // An answer between quotes (inline reply) is kept, however long the quotes.
    const inline = `${lines(300, "> ")}\nMy answer.\n${lines(300, "> ")}`;
    expect(extractReply({ text: inline, html: null }, { keepWhole: false }).extractedText).toBe("My answer.");
    // 400 lines with neither quote nor signature in the first 60: kept whole, nothing guessed.
    const long = lines(400);
    expect(extractReply({ text: long, html: null }, { keepWhole: false }).extractedText).toBe(long);
    // A signature in the head ends the reply, and the rest goes with it.
    const signed = `Short answer.\n\nSent from my iPhone\n${lines(400)}`;
    expect(extractReply({ text: signed, html: null }, { keepWhole: false }).extractedText).toBe("Short answer.");
  });

  it("cuts a localised Outlook plain-text quote: the separator line, or the quoted From line and its Sent line", () => {
    // Each of these kept the whole history before (email-reply-parser knows English, German, French and a few more).
    const quotes = [
      "-----Mensaje original-----\nDe: Ann <ann@example.org>\nEnviado el: lunes, 1 de diciembre de 2026 10:00\nPara: Bob\nAsunto: Números\n",
      "-----原始邮件-----\n发件人: Ann <ann@example.org>\n发送时间: 2026年12月1日 10:00\n收件人: Bob\n主题: 数字\n",
      "发件人: Ann <ann@example.org>\n发送时间: 2026年12月1日 10:00\n收件人: Bob <bob@example.org>\n主题: 数字\n",
      "-----Исходное сообщение-----\nОт: Ann <ann@example.org>\nОтправлено: 1 декабря 2026 г. 10:00\nКому: Bob\nТема: Цифры\n",
      "De: Ann <ann@example.org>\nEnviada: segunda-feira, 1 de dezembro de 2026 10:00\nPara: Bob\nAssunto: Números\n",
    ];
    for (const quote of quotes) {
      expect(extractText(`Yes, that works.\n\n${quote}\nOld text of the original message\nwith a second line\n`, { keepWhole: false }), quote).toBe(
        "Yes, that works.",
      );
    }
    // A reply that merely starts with such a line, or names a sender without a Sent line, is kept.
    expect(extractText("De: Ann, merci.\nEnviado: ok", { keepWhole: false })).toBe("De: Ann, merci.\nEnviado: ok");
    expect(extractText("Thanks.\nDe: la part d'Ann\nÀ bientôt", { keepWhole: false })).toBe("Thanks.\nDe: la part d'Ann\nÀ bientôt");
  });

  it("keeps the whole text when the reply is nothing but quote", () => {
    const quoted = "> only a quote\n> of an older message";
    expect(extractReply({ text: quoted, html: null }, { keepWhole: false }).extractedText).toBe(quoted);
  });

  it("previews 200 code points with whitespace collapsed, never splitting a surrogate pair", () => {
    expect(makePreview("  a\n\n b\t c  ")).toBe("a b c");
    expect(makePreview(null)).toBeNull();
    const emoji = "😀".repeat(300);
    const p = makePreview(emoji)!;
    expect(Array.from(p)).toHaveLength(200);
    expect(p).toBe("😀".repeat(200));
    expect(makePreview(`${" \n".repeat(2000)}late text`)).toBe("late text");
    expect(makePreview(" \n\t ")).toBe("");
    expect(makePreview(`a${" ".repeat(5000)}b ${"c".repeat(500)}`)).toBe(`a b ${"c".repeat(196)}`);
    // The whole text was collapsed when its head was whitespace: 2M emoji after 1,700 newlines took 270 ms, 10M 2 s
    // and 260 MB (found by helper-124). Word by word, it reads as far as 200 characters.
    expect(makePreview(`${"\n".repeat(1700)}${"😀".repeat(2_000_000)}`)).toBe("😀".repeat(200));
    expect(makePreview(`${"😀 ".repeat(150)}`)).toBe(`${"😀 ".repeat(100)}`.trimEnd());
  });
});

describe("base subject", () => {
  it("strips reply and forward markers in many languages, counts and list tags, repeatedly", () => {
    expect(baseSubject("Re: [team] Fwd: RE[2]: AW: SV: VS: Antw: WG: TR:  Quarterly   Report")).toBe("quarterly report");
    expect(baseSubject("Fw: Re(3): x")).toBe("x");
    // Other languages' clients, and a full-width colon: each of these replies started a thread of its own before.
    for (const prefix of [
      "答复: ",
      "回复：",
      "转发: ",
      "RV: ",
      "RES: ",
      "ENC: ",
      "Odp: ",
      "YNT: ",
      "İLT: ",
      "Vá: ",
      "ΑΠ: ",
      "השב: ",
      "Re：",
      "회신: ",
      "VB: ",
    ]) {
      expect(baseSubject(`${prefix}Quarterly numbers`), prefix).toBe("quarterly numbers");
    }
    // One conversation whichever Unicode form the client wrote (macOS decomposes).
    expect(baseSubject("Re: Re\u0301union cafe\u0301")).toBe(baseSubject("Réunion café"));
    expect(baseSubject("Reply needed")).toBe("reply needed");
    expect(baseSubject("Resume: x")).toBe("resume: x");
    expect(baseSubject(null)).toBe("");
    expect(baseSubject("Reply needed")).toBe("reply needed");
  });
});

describe("list verdict (L1)", () => {
  const own = (type: "allow" | "block", entry: string) => ({ own: true, type, entry });
  const project = (type: "allow" | "block", entry: string) => ({ own: false, type, entry });
  const none = { own: false, project: false };

  it("matches the address, its domain and every parent domain", () => {
    expect(listCandidates("Eve@Mail.Evil.Example")).toEqual(["eve@mail.evil.example", "mail.evil.example", "evil.example", "example"]);
    expect(listCandidates(null)).toEqual([]);
  });

  it("lets the mailbox's own list win over the project's, the most specific entry decide, and allow lists exclude the rest", () => {
    expect(listVerdict([project("block", "evil.example")], none)).toBe(true);
    expect(listVerdict([project("block", "evil.example"), own("allow", "evil.example")], none)).toBe(false);
    expect(listVerdict([own("block", "evil.example"), own("allow", "eve@evil.example")], none)).toBe(false);
    expect(listVerdict([own("allow", "evil.example"), own("block", "mail.evil.example")], none)).toBe(true);
    expect(listVerdict([], { own: true, project: false })).toBe(true);
    expect(listVerdict([project("allow", "friend.example")], { own: true, project: true })).toBe(true);
    expect(listVerdict([], { own: false, project: true })).toBe(true);
    expect(listVerdict([], none)).toBe(false);
  });
});

describe("Message-ID sanitizing", () => {
  it("keeps visible-ASCII ids and drops any with brackets, whitespace or line breaks inside", () => {
    expect(cleanId("<abc.123@host.example>")).toBe("abc.123@host.example");
    expect(cleanId("<x>\r\nBcc: y@evil>")).toBeNull();
    expect(cleanId("<x> Bcc: y@evil>")).toBeNull();
    expect(cleanId("<a<b@c>")).toBeNull();
    expect(cleanId("<é@x>")).toBeNull();
    expect(cleanId("")).toBeNull();
  });

  it("reads In-Reply-To and References as bracketed ids, never the words between them", () => {
    expect(idList("<a@b> <x> Bcc: y@evil> <c@d>")).toEqual(["a@b", "x", "c@d"]);
    expect(idList("a@b c@d")).toEqual(["a@b", "c@d"]);
    expect(idList("<a@b> <a@b> <bad id>")).toEqual(["a@b"]);
    expect(idList(null)).toEqual([]);
  });
});
