import { request } from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/keys";
import { mailAttachments } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { revokeKey } from "@/lib/keys/revoke-key";
import { attachmentUrl, readAttachmentToken } from "@/lib/mail/attachments/attachment-url";
import { startApiServer } from "@/lib/testing/api-server";
import { seedMailbox, seedReceivedMail, type MailFixture } from "@/lib/testing/mail-fixture";
import { connectMcp } from "@/lib/testing/mcp-client";
import { seedProject } from "@/lib/testing/seed";
import { getAttachment } from "@/lib/tools/mailboxes/get-attachment";
import { actorVia, call, otherKey, receiveReply, refusal, type Seeded } from "./mail-actors";

let server: Awaited<ReturnType<typeof startApiServer>>;
let seeded: Seeded;
let mail: MailFixture;
/** The reply's attachment: same mailbox, another message of the same thread. */
let replyAttachment: string;
/** A second conversation in the same mailbox. */
let other: MailFixture;

beforeAll(async () => {
  server = await startApiServer();
  seeded = await seedProject({ name: "Attachments" });
  mail = await seedReceivedMail(seeded.project.id);
  const reply = await receiveReply(seeded.project.id, mail.inbox, mail.message);
  const db = await getDb();
  [{ id: replyAttachment }] = await db.select({ id: mailAttachments.id }).from(mailAttachments).where(eq(mailAttachments.messageId, reply));
  other = await seedReceivedMail(seeded.project.id);
});
afterAll(async () => {
  await server.close();
});

const CSV = "quarter,revenue\nq3,42\n";

/** GET with Node's http client, so Host and Origin can be set as a browser or another site would send them. */
function download(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function issue(actor = actorVia(seeded, "mcp"), args: Record<string, unknown> = { threadId: mail.thread, attachmentId: mail.attachment }) {
  return (await call(getAttachment, actor, args)) as { download_url: string; expires_at: string } & Record<string, unknown>;
}

describe("get_attachment", () => {
  it("returns the metadata and a five-minute URL, in snake_case over both transports", async () => {
    const before = Date.now();
    const out = await issue();
    expect(out).toEqual({
      attachment_id: mail.attachment,
      message_id: mail.message,
      thread_id: mail.thread,
      inbox_id: mail.inbox,
      filename: "q3.csv",
      content_type: expect.stringMatching(/^text\/csv/),
      size: CSV.length,
      inline: false,
      download_url: expect.stringMatching(new RegExp(`^${server.url}/mail-attachment/[\\w-]+\\.[\\w-]+$`)),
      expires_at: expect.any(String),
    });
    const ttl = Date.parse(out.expires_at) - before;
    expect(ttl).toBeGreaterThan(299_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
    const viaRest = await call(getAttachment, actorVia(seeded, "rest"), { thread_id: mail.thread, attachment_id: mail.attachment, inbox_id: mail.address });
    expect(viaRest.attachment_id).toBe(mail.attachment);
  });

  it("the URL downloads the bytes without a key, as an attachment, unsniffed and sandboxed", async () => {
    const res = await download((await issue()).download_url);
    expect(res.status).toBe(200);
    expect(res.body).toBe(CSV);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="q3.csv"; filename*=UTF-8''q3.csv`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("sandbox");
    expect(res.headers["cache-control"]).toContain("no-store");
  });

  it("an attachment of another thread is NOT_FOUND, even in the same mailbox", async () => {
    const e = await refusal(getAttachment, actorVia(seeded, "mcp"), { threadId: other.thread, attachmentId: mail.attachment });
    expect(e.code).toBe("NOT_FOUND");
    // The reply's attachment belongs to the fixture's thread: found there, not in the other one.
    expect((await issue(undefined, { threadId: mail.thread, attachmentId: replyAttachment })).filename).toBe("notes.txt");
    expect((await refusal(getAttachment, actorVia(seeded, "mcp"), { threadId: other.thread, attachmentId: replyAttachment })).code).toBe("NOT_FOUND");
    expect((await refusal(getAttachment, actorVia(seeded, "mcp"), { threadId: mail.thread, attachmentId: "att_nope" })).code).toBe("NOT_FOUND");
  });

  it("a key restricted to another mailbox, or of another project, gets NOT_FOUND; a key without message_read is refused", async () => {
    const box = await seedMailbox(seeded.project.id);
    const restricted = await otherKey(seeded, ["message_read"], box.id);
    expect((await refusal(getAttachment, restricted.actor("mcp"), { threadId: mail.thread, attachmentId: mail.attachment })).code).toBe("NOT_FOUND");
    const elsewhere = await seedProject({ name: "Elsewhere" });
    expect((await refusal(getAttachment, actorVia(elsewhere, "mcp"), { threadId: mail.thread, attachmentId: mail.attachment })).code).toBe("NOT_FOUND");
    const noRead = await otherKey(seeded, ["message_update"]);
    expect((await refusal(getAttachment, noRead.actor("mcp"), { threadId: mail.thread, attachmentId: mail.attachment })).code).toBe("missing_permission");
  });
});

describe("the capability URL", () => {
  const token = (url: string) => url.slice(url.lastIndexOf("/") + 1);

  it("after the issuing key is revoked: 410, no bytes", async () => {
    const key = await otherKey(seeded, ["message_read"]);
    const { download_url } = await issue(key.actor("mcp"));
    expect((await download(download_url)).status).toBe(200);
    const db = await getDb();
    await db.transaction((tx) => revokeKey(tx, { actor: seeded.actor, keyId: key.key.id }));
    const res = await download(download_url);
    expect(res.status).toBe(410);
    expect(res.body).not.toContain("revenue");
  });

  it("after the key loses message_read, or is restricted to another mailbox: 410", async () => {
    const db = await getDb();
    const key = await otherKey(seeded, ["message_read", "message_update"]);
    const { download_url } = await issue(key.actor("mcp"));
    await db
      .update(apiKeys)
      .set({ scopes: ["message_update"] })
      .where(eq(apiKeys.id, key.key.id));
    expect((await download(download_url)).status).toBe(410);
    await db
      .update(apiKeys)
      .set({ scopes: ["message_read"] })
      .where(eq(apiKeys.id, key.key.id));
    expect((await download(download_url)).status).toBe(200);
    const box = await seedMailbox(seeded.project.id);
    await db.update(apiKeys).set({ mailboxId: box.id }).where(eq(apiKeys.id, key.key.id));
    expect((await download(download_url)).status).toBe(410);
    await db.update(apiKeys).set({ mailboxId: mail.inbox }).where(eq(apiKeys.id, key.key.id));
    expect((await download(download_url)).status).toBe(200);
  });

  it("five minutes and one second after issue: 410; four minutes 59 seconds: served", async () => {
    const claim = { projectId: seeded.project.id, attachmentId: mail.attachment, keyId: seeded.key.id, sessionId: null };
    const late = attachmentUrl(claim, new Date(Date.now() - 301_000));
    expect((await download(late.url)).status).toBe(410);
    const inTime = attachmentUrl(claim, new Date(Date.now() - 299_000));
    expect((await download(inTime.url)).status).toBe(200);
    // The clock is injected at the check too: exactly at expiry the token is no longer valid.
    const now = new Date();
    const t = token(attachmentUrl(claim, now).url);
    expect(readAttachmentToken(t, new Date(now.getTime() + 299_999))).not.toBeNull();
    expect(readAttachmentToken(t, new Date(now.getTime() + 300_000))).toBeNull();
  });

  it("fetched on another host or from a page of another origin: 403, no bytes", async () => {
    const { download_url } = await issue();
    const port = new URL(server.url).port;
    const viaOtherHost = await download(download_url, { host: `localhost:${port}` });
    expect(viaOtherHost.status).toBe(403);
    expect(viaOtherHost.body).not.toContain("revenue");
    expect(JSON.parse(viaOtherHost.body).error.code).toBe("forbidden");
    const fromOtherSite = await download(download_url, { origin: "https://evil.example" });
    expect(fromOtherSite.status).toBe(403);
    expect((await download(download_url, { origin: server.url })).status).toBe(200);
  });

  it("behind a trusted proxy, judged by X-Forwarded-Host's last entry (the proxy's), as the host check judges it", async () => {
    const { download_url } = await issue();
    const issuedHost = new URL(server.url).host;
    const otherHost = `localhost:${new URL(server.url).port}`;
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    try {
      const clientPicked = await download(download_url, { host: otherHost, "x-forwarded-host": `${issuedHost}, ${otherHost}` });
      expect(clientPicked.status).toBe(403);
      expect(clientPicked.body).not.toContain("revenue");
      expect((await download(download_url, { host: otherHost, "x-forwarded-host": `${otherHost}, ${issuedHost}` })).status).toBe(200);
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
    }
  });

  it("a tampered signature or payload: 410", async () => {
    const { download_url } = await issue();
    const [body, mac] = token(download_url).split(".");
    const flip = (s: string) => `${s.slice(0, -2)}${s.at(-2) === "A" ? "B" : "A"}${s.at(-1)}`;
    const base = download_url.slice(0, download_url.lastIndexOf("/") + 1);
    // A payload naming another attachment, signed with nothing we know.
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), a: replyAttachment })).toString("base64url");
    for (const t of [`${body}.${flip(mac)}`, `${flip(body)}.${mac}`, `${forged}.${mac}`, body, `${body}.${mac}.x`, "garbage"]) {
      const res = await download(base + t);
      expect(res.status).toBe(410);
      expect(res.body).not.toContain("revenue");
    }
  });

  it("an attachment deleted since (its message gone): 410", async () => {
    const fresh = await seedReceivedMail(seeded.project.id);
    const { download_url } = await issue(undefined, { threadId: fresh.thread, attachmentId: fresh.attachment });
    await (await getDb()).delete(mailAttachments).where(and(eq(mailAttachments.projectId, seeded.project.id), eq(mailAttachments.id, fresh.attachment)));
    expect((await download(download_url)).status).toBe(410);
  });

  it("is never written to the server's log, on success or refusal", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    try {
      const { download_url } = await issue();
      const t = token(download_url);
      await download(download_url);
      await download(download_url, { origin: "https://evil.example" });
      await download(`${download_url}x`);
      await download(download_url, { host: `localhost:${new URL(server.url).port}` });
      for (const spy of spies) for (const args of spy.mock.calls) expect(JSON.stringify(args.map(String))).not.toContain(t.slice(0, 20));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("end to end: get_attachment over MCP with the SDK client, then a plain GET without a bearer", async () => {
    const { client } = await connectMcp(server.url, seeded.secret);
    try {
      const res = await client.callTool({ name: "get_attachment", arguments: { threadId: mail.thread, attachmentId: mail.attachment } });
      expect(res.isError).toBeFalsy();
      const url = (res.structuredContent as { download_url: string }).download_url;
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(await got.text()).toBe(CSV);
      // Over REST the same tool answers at its route, with the bearer.
      const rest = await fetch(`${server.url}/api/v1/threads/${mail.thread}/attachments/${mail.attachment}`, {
        headers: { authorization: `Bearer ${seeded.secret}` },
      });
      expect(rest.status).toBe(200);
      expect((await rest.json()).filename).toBe("q3.csv");
    } finally {
      await client.close();
    }
  });
});
