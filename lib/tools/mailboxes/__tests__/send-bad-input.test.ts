import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes, mailListEntries, mailQuota, type Mailbox } from "@/lib/db/schema/mail";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { dayPeriod } from "@/lib/mail/outbound/reserve-quota";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { sendMessage } from "@/lib/tools/mailboxes/send-message";
import { projectWithKey, refusal, refusedFields } from "./inbox-test-helpers";
import { sendWrites } from "./send-writes";

/**
 * send_message's rows of the design's "Bad inputs and errors" table (§4 B): each is refused with the code it names,
 * naming the field in the caller's casing, and writes nothing — no message, thread, attachment, delivery, draft,
 * job or quota. No relay is configured here, so only addresses on this instance can be sent to.
 */
let p: Awaited<ReturnType<typeof projectWithKey>>;
let box: Mailbox;
let to: Mailbox;

beforeAll(async () => {
  p = await projectWithKey("Send bad input");
  box = await seedMailbox(p.project.id);
  to = await seedMailbox(p.project.id);
});

const base = () => ({ inboxId: box.id, to: [to.address], subject: "Hello", text: "Hi there." });
const b64 = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");

/** The refusal of an MCP call, checked to have written nothing. */
async function refused(args: Record<string, unknown>) {
  const before = await sendWrites(p.project.id);
  const err = await refusal(sendMessage, p.mcp, args);
  expect(await sendWrites(p.project.id)).toEqual(before);
  return err;
}
/** The fields a refused MCP call's validation_error names, checked to have written nothing. */
async function fields(args: Record<string, unknown>) {
  const before = await sendWrites(p.project.id);
  const named = await refusedFields(sendMessage, p.mcp, args);
  expect(await sendWrites(p.project.id)).toEqual(before);
  return named;
}

describe("send_message refuses bad recipients", () => {
  it.each([
    ["no recipient at all", { to: undefined }, ["to"]],
    ["an empty to", { to: [] }, ["to"]],
    [
      "51 recipients across to, cc and bcc",
      {
        to: Array.from({ length: 20 }, (_, i) => `t${i}@example.com`),
        cc: Array.from({ length: 20 }, (_, i) => `c${i}@example.com`),
        bcc: Array.from({ length: 11 }, (_, i) => `b${i}@example.com`),
      },
      ["to"],
    ],
    ["a display name", { to: ["Bob <b@x.com>"] }, ["to.0"]],
    ["comma-joined addresses", { to: ["a@b.co", "a@b.co, d@e.fr"] }, ["to.1"]],
    ["a header smuggled into an address", { to: ["a@b.co\r\nBcc: x@y.co"] }, ["to.0"]],
    ["a bad cc", { cc: ["not an address"] }, ["cc.0"]],
    ["a bad bcc", { bcc: ["x@y.co", "x@"] }, ["bcc.1"]],
    ["a bad replyTo", { replyTo: ["Reply <r@x.co>"] }, ["replyTo.0"]],
  ])("%s", async (_what, change, named) => {
    expect(await fields({ ...base(), ...change })).toEqual(named);
  });

  it("names the field in snake_case over REST", async () => {
    const before = await sendWrites(p.project.id);
    expect(await refusedFields(sendMessage, p.rest, { inbox_id: box.id, to: [to.address], reply_to: ["x"], subject: "S", text: "t" })).toEqual(["reply_to.0"]);
    expect(await sendWrites(p.project.id)).toEqual(before);
  });
});

describe("send_message refuses a bad subject, body or header", () => {
  it.each([
    ["a line break in the subject", { subject: "Hi\r\nBcc: a@evil.example" }, ["subject"]],
    ["a subject over 998 characters", { subject: "s".repeat(999) }, ["subject"]],
    ["a missing subject", { subject: undefined }, ["subject"]],
    // Neither has a UTF-8 form; the message's event (JSON in Postgres) could not be stored, and the send would fail late.
    ["a NUL in the subject", { subject: "Hi\u0000there" }, ["subject"]],
    ["a lone surrogate in the subject", { subject: "caf\uD800" }, ["subject"]],
    ["a lone surrogate in the text", { text: "\uDC00 hello" }, ["text"]],
    ["neither text nor html", { text: undefined }, ["text"]],
    ["text over 256 KB", { text: "x".repeat(256 * 1024 + 1) }, ["text"]],
    ["html over 256 KB", { html: `<p>${"é".repeat(128 * 1024)}</p>` }, ["html"]],
    ["a Bcc header", { headers: { Bcc: "x@y.co" } }, ["headers.Bcc"]],
    ["a From header", { headers: { From: "boss@example.com" } }, ["headers.From"]],
    ["a Subject header", { headers: { subject: "Second subject" } }, ["headers.subject"]],
    ["a line break in a header value", { headers: { "X-A": "v\r\nB: c" } }, ["headers.X-A"]],
    ["a header name that is not a token", { headers: { "Bad Name": "v" } }, ["headers.Bad Name"]],
    ["a reserved X- header", { headers: { "X-Brynth-Agent": "me" } }, ["headers.X-Brynth-Agent"]],
    ["21 headers", { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, "v"])) }, ["headers"]],
  ])("%s", async (_what, change, named) => {
    expect(await fields({ ...base(), ...change })).toEqual(named);
  });
});

describe("send_message refuses bad attachments", () => {
  const file = (i: number) => ({ filename: `f${i}.txt`, content: b64(10) });

  it.each([
    ["11 attachments", { attachments: Array.from({ length: 11 }, (_, i) => file(i)) }, ["attachments"]],
    [
      "more than 10 MB in total",
      {
        attachments: [
          { filename: "a.bin", content: b64(6 * 1024 * 1024) },
          { filename: "b.bin", content: b64(5 * 1024 * 1024) },
        ],
      },
      ["attachments"],
    ],
    ["content and path together", { attachments: [file(0), { filename: "x.txt", content: b64(3), path: "docs/x.txt" }] }, ["attachments.1"]],
    ["neither content nor path", { attachments: [{ filename: "x.txt" }] }, ["attachments.0"]],
    ["bad base64", { attachments: [{ filename: "x.txt", content: "not base64!" }] }, ["attachments.0.content"]],
    ["content without a filename", { attachments: [{ content: b64(3) }] }, ["attachments.0.filename"]],
    ["a path that climbs out", { attachments: [file(0), { path: "../../etc/passwd" }] }, ["attachments.1"]],
  ])("%s", async (_what, change, named) => {
    expect(await fields({ ...base(), ...change })).toEqual(named);
  });

  it("answers NOT_FOUND naming the attachment for a disk path that does not exist", async () => {
    const err = await refused({ ...base(), attachments: [file(0), { path: "reports/missing.pdf" }] });
    expect(err.code).toBe("NOT_FOUND");
    expect(err.message).toMatch(/^attachments\.1: /);
  });
});

describe("send_message refuses by policy, route and quota", () => {
  it("refuses a recipient on the inbox's send block list, naming the entry", async () => {
    const db = await getDb();
    await db.insert(mailListEntries).values({
      id: newId("mle"),
      projectId: p.project.id,
      mailboxId: box.id,
      direction: "send",
      type: "block",
      entry: "blocked.example",
      entryType: "domain",
    });
    const err = await refused({ ...base(), to: [to.address], bcc: ["ceo@sub.blocked.example"] });
    expect(err.code).toBe("POLICY_DENIED");
    expect(err.details).toMatchObject({ field: "bcc.0", list: "send/block", entry: "blocked.example", address: "ceo@sub.blocked.example" });
    expect(err.message).toContain("blocked.example");
  });

  it("refuses a recipient outside a non-empty send allow list", async () => {
    const other = await seedMailbox(p.project.id);
    const db = await getDb();
    await db.insert(mailListEntries).values({
      id: newId("mle"),
      projectId: p.project.id,
      mailboxId: other.id,
      direction: "send",
      type: "allow",
      entry: to.address,
      entryType: "email",
    });
    const err = await refused({ ...base(), inboxId: other.id, to: [to.address], cc: [box.address] });
    expect(err.code).toBe("POLICY_DENIED");
    expect(err.details).toMatchObject({ field: "cc.0", list: "send/allow", address: box.address });
  });

  it("answers service_unavailable for an outside recipient without a relay, and queues nothing", async () => {
    const err = await refused({ ...base(), cc: ["someone@example.com"] });
    expect(err.code).toBe("service_unavailable");
    expect(err.message).toContain("example.com");
  });

  it("answers missing_permission from a read-only inbox, with the owner-setting fix", async () => {
    const ro = await seedMailbox(p.project.id);
    await (await getDb()).update(mailboxes).set({ sendPolicy: "read_only" }).where(eq(mailboxes.id, ro.id));
    const err = await refused({ ...base(), inboxId: ro.id });
    expect(err.code).toBe("missing_permission");
    expect(err.fix).toMatch(/read-only \(owner setting\)/);
  });

  it("answers QUOTA_EXCEEDED with the reset time when the day's quota is used up", async () => {
    const q = await projectWithKey("Quota used up");
    const from = await seedMailbox(q.project.id);
    const dest = await seedMailbox(q.project.id);
    const now = new Date();
    await (await getDb()).insert(mailQuota).values({ projectId: q.project.id, period: dayPeriod(now), used: env().EMAIL_DAILY_LIMIT - 1 });
    const before = await sendWrites(q.project.id);
    const err = await refusal(sendMessage, q.mcp, { inboxId: from.id, to: [dest.address, box.address], subject: "Two", text: "t" });
    expect(err.code).toBe("QUOTA_EXCEEDED");
    const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
    expect(err.details).toMatchObject({ period: "day", limit: env().EMAIL_DAILY_LIMIT, resets_at: tomorrow });
    expect(err.fix).toContain(tomorrow);
    expect(Number(err.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(await sendWrites(q.project.id)).toEqual(before);
  });
});
