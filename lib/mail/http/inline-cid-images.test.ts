import { afterAll, beforeAll, describe, expect, it } from "vitest";
import MailComposer from "nodemailer/lib/mail-composer";
import { getDb } from "@/lib/db/client";
import { inlineCidImages } from "@/lib/mail/http/inline-cid-images";
import { mailHtmlUrl } from "@/lib/mail/http/mail-html-url";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { defaultMailbox } from "@/lib/mail/project-address";
import { startApiServer } from "@/lib/testing/api-server";
import { seedProject } from "@/lib/testing/seed";

/**
 * A cid: URL that decodes to text Postgres cannot match (`cid:%00`, a NUL) names no part: the image is dropped and
 * the message served. Before, contentIds put the NUL into the attachments query, Postgres refused it, and GET
 * /mail-html answered 500, so the owner's mail view showed an error instead of the message (found by helper-117).
 */
describe("GET /mail-html/<token> with a cid: URL that decodes to NUL", () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(() => server?.close());

  it("serves the message with the bad image dropped", async () => {
    const seeded = await seedProject();
    const db = await getDb();
    const mailbox = await defaultMailbox(db, seeded.project.id);
    const raw = await new MailComposer({
      from: "eve@example.org",
      to: mailbox.address,
      subject: "Hi",
      html: '<p>Hello owner</p><img src="cid:%00" alt="bad">',
    })
      .compile()
      .build();
    const [mail] = await receiveMessage(raw, { mailFrom: "eve@example.org", recipients: [mailbox], remote: "local" });
    const url = mailHtmlUrl(seeded.project.id, mail.messageId, new Date(Date.now() + 60_000));
    const res = await fetch(`${server.url}${new URL(url).pathname}`);
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(body).toContain("Hello owner");
    expect(body).toContain('<img alt="bad" />');
    expect(body).not.toContain("cid:");
  });
});

/**
 * Only `<img>` sources are rewritten. Before, a regex over the serialized HTML (`/\ssrc="cid:([^"]*)"/`) also matched
 * text, where sanitize-html leaves `"` as is, and cut ` src="cid:…"` out of a sentence (found by helper-117).
 */
describe("inlineCidImages", () => {
  it("leaves text that looks like a cid source, and keeps an image's other attributes", async () => {
    const seeded = await seedProject();
    const db = await getDb();
    const html = '<p>Write src="cid:logo@x" in the tag.</p><img alt="a &quot;b&quot; &amp; c" src="cid:nowhere@x" width="10" />';
    const out = await inlineCidImages(db, { projectId: seeded.project.id, messageId: "msg_none" }, html);
    expect(out).toBe('<p>Write src="cid:logo@x" in the tag.</p><img alt="a &quot;b&quot; &amp; c" width="10" />');
  });
});
