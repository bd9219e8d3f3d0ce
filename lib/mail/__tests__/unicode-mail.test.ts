import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/actor";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { keyActor } from "@/lib/keys/key-actor";
import { messageByRfc } from "@/lib/mail/__tests__/mail-store-helpers";
import { receiveMessage } from "@/lib/mail/inbound/receive-message";
import { rawMail, seedMailbox } from "@/lib/testing/mail-fixture";
import { seedProject } from "@/lib/testing/seed";
import { createInbox } from "@/lib/tools/mailboxes/create-inbox";
import { listMessages } from "@/lib/tools/mailboxes/list-messages";
import { listThreads } from "@/lib/tools/mailboxes/list-threads";
import { searchInboxes } from "@/lib/tools/mailboxes/search-inboxes";
import { type AnyTool, runTool } from "@/lib/tools/run-tool";

/** Mail in other scripts and forms: Turkish İ, decomposed accents, a subject cut inside an emoji, other clients' "Re:". */
let seeded: Awaited<ReturnType<typeof seedProject>>;
let actor: Actor;
const tag = () => Math.random().toString(36).slice(2, 8);
// biome-ignore lint/suspicious/noExplicitAny: outputs are checked field by field
const call = async (tool: AnyTool, args: unknown): Promise<any> => (await runTool(tool, actor, args, new AbortController().signal)).output;

beforeAll(async () => {
  seeded = await seedProject({ name: "Unicode mail" });
  actor = keyActor({ ...seeded.key, projectName: seeded.project.name }, new Headers(), "mcp", null);
});

async function receive(mailboxId: string, o: { from?: string; subject: string; messageId: string; inReplyTo?: string }) {
  const [mb] = await (await getDb()).select().from(mailboxes).where(eq(mailboxes.id, mailboxId));
  const raw = await rawMail({
    from: o.from ?? "Ann <ann@example.org>",
    to: mb.address,
    subject: o.subject,
    text: "x",
    messageId: o.messageId,
    inReplyTo: o.inReplyTo,
  });
  await receiveMessage(raw, { mailFrom: "ann@example.org", recipients: [mb], remote: "local" });
  return messageByRfc(mb.id, o.messageId.slice(1, -1));
}

describe("Turkish İ", () => {
  it("search_inboxes finds 'İlker Çelik' by 'İlker' (before: JavaScript's lower case, i + U+0307, matched nothing)", async () => {
    const made = await call(createInbox, { username: `ilker-${tag()}`, displayName: "İlker Çelik" });
    for (const q of ["İlker", "ilker", "Çelik"])
      expect(
        (await call(searchInboxes, { q })).inboxes.map((i: { inbox_id: string }) => i.inbox_id),
        q,
      ).toContain(made.inbox_id);
  });

  it("a thread's senders are filtered as list_messages' from is (before: stored as i + U+0307, no thread matched)", async () => {
    const mb = await seedMailbox(seeded.project.id);
    const raw = Buffer.from(
      `From: =?utf-8?q?=C4=B0lker?= <İlker@örnek.example>\r\nTo: ${mb.address}\r\nSubject: Merhaba\r\nMessage-ID: <tr-${tag()}@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nselam\r\n`,
      "utf8",
    );
    await receiveMessage(raw, { mailFrom: "x@example.org", recipients: [mb], remote: "local" });
    expect((await call(listMessages, { inboxId: mb.id, from: ["İlker@"] })).count).toBe(1);
    const threads = await call(listThreads, { inboxId: mb.id, senders: ["İlker@"] });
    expect(threads.count).toBe(1);
    expect(threads.threads[0].senders).toEqual(["ilker@örnek.example"]);
  });
});

describe("threading across Unicode forms and clients", () => {
  it("a reply titled in NFD, or with a Chinese client's 答复：, joins the NFC thread it answers", async () => {
    const mb = await seedMailbox(seeded.project.id);
    const t = tag();
    const first = await receive(mb.id, { subject: "Réunion café", messageId: `<first-${t}@example.org>` });
    const nfd = await receive(mb.id, {
      from: "Bob <bob@example.org>",
      subject: "Re: Re\u0301union cafe\u0301",
      messageId: `<nfd-${t}@example.org>`,
      inReplyTo: `<first-${t}@example.org>`,
    });
    const zh = await receive(mb.id, {
      from: "Li <li@example.org>",
      subject: "答复：Réunion café",
      messageId: `<zh-${t}@example.org>`,
      inReplyTo: `<nfd-${t}@example.org>`,
    });
    expect([nfd.threadId, zh.threadId]).toEqual([first.threadId, first.threadId]);
  });
});

describe("a subject longer than is kept", () => {
  it("is cut between characters, never inside an emoji (before: half of it stored as U+FFFD)", async () => {
    const mb = await seedMailbox(seeded.project.id);
    const row = await receive(mb.id, { subject: `${"a".repeat(1999)}\u{1F600}tail`, messageId: `<cut-${tag()}@example.org>` });
    expect(row.subject).toBe("a".repeat(1999));
  });
});
