import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { mailHtmlUrl, readMailHtmlToken } from "@/lib/mail/http/mail-html-url";
import { sanitizeMailHtml } from "@/lib/mail/http/sanitize-mail-html";
import { serveMailHtml } from "@/lib/mail/http/serve-mail-html";
import MailComposer from "nodemailer/lib/mail-composer";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { defaultMailbox } from "@/lib/mail/project-address";
import { seedProject } from "@/lib/testing/seed";

/** The hostile corpus the Mailboxes screen must show inert (design §4 A, E5). */
const hostileHtml = [
  "<p>Hello <b>owner</b></p>",
  "<script>window.__pwned = 1</script>",
  '<img src="x" onerror="window.__pwned = 2">',
  '<a href="javascript:window.__pwned = 3">click</a>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<div style="width: expression(alert(1))">expr</div>',
  '<div style="background-image: url(https://evil.example/bg.png)">bg</div>',
  '<div style="color: red">red</div>',
  "<style>body { background: url(https://evil.example/css.png) }</style>",
  '<img src="https://images.example/pixel.png" alt="pixel">',
  '<svg onload="window.__pwned = 4"><circle r="1"/></svg>',
  '<form action="https://evil.example/"><input name="q"></form>',
].join("\n");

describe("sanitizeMailHtml", () => {
  it("keeps the text and layout but drops scripts, handlers, javascript: links, meta refresh, frames, forms and CSS that loads or runs", () => {
    const { html, remoteImages } = sanitizeMailHtml(hostileHtml);
    expect(html).toContain("<b>owner</b>");
    expect(html).toContain('<div style="color:red">red</div>');
    for (const bad of [
      "<script",
      "__pwned",
      "onerror",
      "onload",
      "javascript:",
      "<meta",
      "<iframe",
      "expression",
      "url(",
      "<style",
      "<form",
      "<input",
      "<svg",
    ]) {
      expect(html).not.toContain(bad);
    }
    // The remote image stays (CSP blocks it until "Load images") and is counted for the button.
    expect(html).toContain('src="https://images.example/pixel.png"');
    expect(remoteImages).toBe(1);
  });

  it("drops a style attribute that hides url( behind entities or escapes, and properties outside the list", () => {
    expect(sanitizeMailHtml('<p style="position: fixed; color: red">x</p>').html).toBe('<p style="color:red">x</p>');
    expect(sanitizeMailHtml('<p style="color: red; background-color: u&#114;l(https://x.example/a)">x</p>').html).toBe("<p>x</p>");
    expect(sanitizeMailHtml('<p style="background-color: \\75rl(https://x.example/a)">x</p>').html).toBe("<p>x</p>");
  });

  // Found by helper-100: ` https://…` was kept (browsers trim it) but not counted, so "Load images" never appeared.
  it("counts a remote image whose source has spaces around it, and drops a relative source", () => {
    const spaced = sanitizeMailHtml('<img src=" https://x.example/a.png"><img src="\nhttps://x.example/b.png"><img src="/api/v1/whoami"><img src="pic.png">');
    expect(spaced.remoteImages).toBe(2);
    expect(spaced.html).toBe('<img src="https://x.example/a.png" /><img src="https://x.example/b.png" /><img /><img />');
    expect(sanitizeMailHtml('<img src="data:image/png;base64,AAAA">').html).toBe('<img src="data:image/png;base64,AAAA" />');
    // A part of the message itself: kept for serveMailHtml to inline, not counted as remote.
    expect(sanitizeMailHtml('<img src=" cid:logo@x ">')).toEqual({ html: '<img src="cid:logo@x" />', remoteImages: 0 });
  });

  it("shows HTML nested deeper than a browser builds as its escaped text, at once (220,000 levels held the request a minute)", () => {
    const deep = `${"<div>".repeat(220_000)}<b onclick="x()">Pay</b> &lt;now&gt;<script>alert(1)</script>${"</b>".repeat(220_000)}`;
    const { html, remoteImages } = sanitizeMailHtml(deep);
    expect(html).toContain("nests more deeply than a browser shows");
    expect(html).toContain("Pay &amp;lt;now&amp;gt; alert(1)");
    expect(html).not.toMatch(/<(div|b|script)\b/);
    expect(remoteImages).toBe(0);
    // Nesting a browser does build is sanitised as usual.
    expect(sanitizeMailHtml(`${"<div>".repeat(500)}<b>ok</b>${"</div>".repeat(500)}`).html).toContain("<b>ok</b>");
  });

  it("opens links in a new tab without a referrer", () => {
    expect(sanitizeMailHtml('<a href="https://example.com/">x</a>').html).toBe(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
  });
});

describe("GET /mail-html/<token>", () => {
  it("serves the sanitised HTML with images blocked, and the signed images variant allowing them", async () => {
    const seeded = await seedProject();
    const db = await getDb();
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const raw = await new MailComposer({ from: "eve@example.org", to: mailbox.address, subject: "Hi", text: "Hi", html: "<p>Hi</p>" }).compile().build();
    const [mail] = await receiveMessage(raw, { mailFrom: "eve@example.org", recipients: [mailbox], remote: "local" });
    // Stored as received: the sanitiser runs when it is served, so what the store holds does not matter.
    await db.update(mailMessages).set({ html: hostileHtml }).where(eq(mailMessages.id, mail.messageId));
    const expires = new Date(Date.now() + 60_000);

    const plain = await serveMailHtml(new Request(mailHtmlUrl(seeded.project.id, mail.messageId, expires)));
    expect(plain.status).toBe(200);
    const csp = plain.headers.get("content-security-policy")!;
    expect(csp).toMatch(/^sandbox allow-popups allow-popups-to-escape-sandbox;/);
    expect(csp).not.toMatch(/allow-scripts|allow-same-origin/);
    expect(csp).toContain("img-src data:;");
    expect(plain.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const body = await plain.text();
    expect(body).toContain("<b>owner</b>");
    expect(body).not.toContain("<script");

    const imagesUrl = mailHtmlUrl(seeded.project.id, mail.messageId, expires, { images: true });
    expect(readMailHtmlToken(imagesUrl.split("/mail-html/")[1])).toMatchObject({ messageId: mail.messageId, images: true });
    const withImages = await serveMailHtml(new Request(imagesUrl));
    expect(withImages.headers.get("content-security-policy")).toContain("img-src data: https: http:;");
    expect(await withImages.text()).not.toContain("<script");

    // The images flag is inside the signed body: adding it to a plain token breaks the signature.
    const [body64, mac] = mailHtmlUrl(seeded.project.id, mail.messageId, expires).split("/mail-html/")[1].split(".");
    const claim = JSON.parse(Buffer.from(body64, "base64url").toString("utf8")) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...claim, i: 1 })).toString("base64url")}.${mac}`;
    expect(readMailHtmlToken(forged)).toBeNull();
  });
});

// Inline images (note-36: `cid:` images did not display): the message's own raster parts, as data, with no request.
describe("GET /mail-html/<token> with inline images", () => {
  it("shows the message's own inline images as data, and nothing for another message's, an SVG or a missing part", async () => {
    const seeded = await seedProject();
    const db = await getDb();
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e57b6f0000000049454e44ae426082",
      "hex",
    );
    const receive = async (html: string, attachments: Array<{ cid: string; contentType: string; content: Buffer }>) => {
      const raw = await new MailComposer({
        from: "eve@example.org",
        to: mailbox.address,
        subject: "Logo",
        html,
        attachments: attachments.map((a, i) => ({ filename: `part${i}`, ...a })),
      })
        .compile()
        .build();
      const [mail] = await receiveMessage(raw, { mailFrom: "eve@example.org", recipients: [mailbox], remote: "local" });
      return mail.messageId;
    };
    const other = await receive("<p>other</p>", [{ cid: "theirs@x", contentType: "image/png", content: png }]);
    const mine = await receive(
      '<p><img src="cid:logo@x"><img src="cid:logo%40x"><img src="cid:vector@x"><img src="cid:theirs@x"><img src="cid:nowhere@x"></p>',
      [
        { cid: "logo@x", contentType: "image/png", content: png },
        { cid: "vector@x", contentType: "image/svg+xml", content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
      ],
    );
    expect(other).not.toBe(mine);
    const res = await serveMailHtml(new Request(mailHtmlUrl(seeded.project.id, mine, new Date(Date.now() + 60_000))));
    const body = await res.text();
    const data = `src="data:image/png;base64,${png.toString("base64")}"`;
    expect(body.split(data)).toHaveLength(3);
    expect(body).not.toContain("cid:");
    expect(body).not.toContain("svg");
    expect(body.match(/<img/g)).toHaveLength(5);
    // The CSP is unchanged: data: images only, until "Load images".
    expect(res.headers.get("content-security-policy")).toContain("img-src data:;");
  });
});
