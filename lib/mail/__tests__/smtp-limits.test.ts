import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { count, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema/mail";
import { projectAddress } from "@/lib/mail/project-address";
import { startSmtpListener, type SmtpListener } from "@/lib/mail/inbound/smtp-listener";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";
import { fakeResolver, sendTo } from "@/lib/mail/__tests__/helpers";
import { SMTPConnection } from "@/lib/mail/__tests__/smtp-connection";

/** The listener's limits, for real: raw sockets from several loopback addresses (127.0.0.x) against smtp-server. */
let address: string;
let listener: SmtpListener | undefined;
const opened: SMTPConnection[] = [];
const smtpEnv = envSettings("SMTP_");

beforeAll(async () => {
  const seeded = await seedProject({ name: "Limits" });
  address = await projectAddress(await getDb(), seeded.project.id);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
  await listener?.close();
  listener = undefined;
  smtpEnv.restore();
});

async function listen(settings: Record<string, string>) {
  smtpEnv.set(settings);
  listener = await startSmtpListener({ port: 0, host: "127.0.0.1", resolver: fakeResolver() });
  return listener;
}

async function connectFrom(from: string) {
  const c = new SMTPConnection(listener!.port, from);
  opened.push(c);
  return { conn: c, greeting: await c.open() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when the server closes the connection, or rejects after `ms`. */
function closedWithin(conn: SMTPConnection, ms: number) {
  return Promise.race([conn.whenClosed(), sleep(ms).then(() => Promise.reject(new Error(`still open after ${ms} ms`)))]);
}

describe("SMTP listener limits", () => {
  it("refuses a client address over SMTP_MAX_CLIENTS_PER_IP with a 421 greeting and closes it; other addresses still connect", async () => {
    await listen({ SMTP_MAX_CLIENTS_PER_IP: "3", SMTP_MAX_CLIENTS: "50" });
    for (let i = 0; i < 3; i++) expect((await connectFrom("127.0.0.1")).greeting).toMatch(/^220 /);
    const over = await connectFrom("127.0.0.1");
    expect(over.greeting).toMatch(/^421 .*Too many connections from your address/);
    await closedWithin(over.conn, 3000);
    expect((await connectFrom("127.0.0.2")).greeting).toMatch(/^220 /);

    // A closed connection frees its place.
    await opened[0].close();
    await sleep(50);
    expect((await connectFrom("127.0.0.1")).greeting).toMatch(/^220 /);
  });

  it("refuses a connection over SMTP_MAX_CLIENTS with a 421 greeting and closes it", async () => {
    await listen({ SMTP_MAX_CLIENTS_PER_IP: "2", SMTP_MAX_CLIENTS: "4" });
    for (const from of ["127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"]) expect((await connectFrom(from)).greeting).toMatch(/^220 /);
    const over = await connectFrom("127.0.0.3");
    expect(over.greeting).toMatch(/^421 /);
    await closedWithin(over.conn, 3000);
  });

  it("closes a silent client after SMTP_IDLE_TIMEOUT_MS with 421", async () => {
    await listen({ SMTP_IDLE_TIMEOUT_MS: "1000" });
    const { conn, greeting } = await connectFrom("127.0.0.1");
    expect(greeting).toMatch(/^220 /);
    expect(await conn.cmd("EHLO idle.example")).toMatch(/^250 /);
    const reply = conn.reply();
    await closedWithin(conn, 4000);
    expect(await reply).toMatch(/^421 /);
  });

  it("cuts off a command trickled one byte at a time after SMTP_COMMAND_TIMEOUT_MS, though the client is never idle", async () => {
    await listen({ SMTP_IDLE_TIMEOUT_MS: "1000", SMTP_COMMAND_TIMEOUT_MS: "2000" });
    const { conn } = await connectFrom("127.0.0.1");
    const reply = conn.reply();
    const line = "EHLO slow.example.with.a.rather.long.name.that.never.ends";
    const trickle = (async () => {
      for (let i = 0; !conn.isClosed && i < line.length; i++) {
        conn.write(line[i]);
        await sleep(250);
      }
    })();
    await closedWithin(conn, 6000);
    expect(await reply).toMatch(/^421 .*[Cc]ommand/);
    await trickle;
  });

  it("cuts off a DATA transfer trickled line by line after SMTP_COMMAND_TIMEOUT_MS and stores nothing", async () => {
    await listen({ SMTP_IDLE_TIMEOUT_MS: "1000", SMTP_COMMAND_TIMEOUT_MS: "2000" });
    const db = await getDb();
    const before = (await db.select({ n: count() }).from(mailMessages))[0].n;
    const { conn } = await connectFrom("127.0.0.1");
    expect(await conn.cmd("EHLO slow.example")).toMatch(/^250 /);
    expect(await conn.cmd("MAIL FROM:<slow@sender.example>")).toMatch(/^250 /);
    expect(await conn.cmd(`RCPT TO:<${address}>`)).toMatch(/^250 /);
    expect(await conn.cmd("DATA")).toMatch(/^354 /);
    const reply = conn.reply();
    conn.write("Subject: slowloris\r\n\r\n");
    const trickle = (async () => {
      for (let i = 0; !conn.isClosed && i < 40; i++) {
        conn.write(`line ${i}\r\n`);
        await sleep(250);
      }
      conn.write(".\r\n");
    })();
    await closedWithin(conn, 6000);
    expect(await reply).toMatch(/^421 /);
    await trickle;
    const subjects = await db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.subject, "slowloris"));
    expect(subjects[0].n).toBe(0);
    expect((await db.select({ n: count() }).from(mailMessages))[0].n).toBe(before);
  });

  it("answers 451 when storing a message outlasts SMTP_STORE_TIMEOUT_MS, commits nothing of it later, and stores the retry once", async () => {
    const { port } = await listen({ SMTP_STORE_TIMEOUT_MS: "1500" });
    const db = await getDb();
    const mail = { from: "stuck@sender.example", to: address, subject: "stuck commit", text: "wait", messageId: "<stuck-commit@sender.example>" };
    const { conn } = await connectFrom("127.0.0.1");
    expect(await conn.cmd("EHLO stuck.example")).toMatch(/^250 /);
    expect(await conn.cmd(`MAIL FROM:<${mail.from}>`)).toMatch(/^250 /);
    expect(await conn.cmd(`RCPT TO:<${address}>`)).toMatch(/^250 /);
    // Another transaction holds the threads table: the message's commit waits behind it (on PGlite, behind it all).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const blocker = db.transaction(async (tx) => {
      await tx.execute(sql`lock table mail_threads in exclusive mode`);
      locked();
      await held;
    });
    await isLocked;
    expect(await conn.cmd("DATA")).toMatch(/^354 /);
    const answer = await conn.cmd(`Message-ID: ${mail.messageId}\r\nSubject: ${mail.subject}\r\n\r\n${mail.text}\r\n.`);
    expect(answer).toMatch(/^451 .*took too long/);
    release();
    await blocker;
    await sleep(500);
    const stored = () => db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.subject, "stuck commit"));
    expect((await stored())[0].n).toBe(0);

    // The sender retries: the message is stored, once.
    expect((await sendTo(port, mail)).response).toMatch(/^250 /);
    expect((await stored())[0].n).toBe(1);
  });

  it("answers 452 to a message that does not fit in SMTP_MAX_INFLIGHT_BYTES beside those still arriving, and takes it once they are stored", async () => {
    await listen({ SMTP_MAX_INFLIGHT_BYTES: "100000" });
    const db = await getDb();
    const begin = async (from: string) => {
      const { conn } = await connectFrom(from);
      expect(await conn.cmd("EHLO big.example")).toMatch(/^250 /);
      expect(await conn.cmd("MAIL FROM:<big@sender.example>")).toMatch(/^250 /);
      expect(await conn.cmd(`RCPT TO:<${address}>`)).toMatch(/^250 /);
      expect(await conn.cmd("DATA")).toMatch(/^354 /);
      return conn;
    };
    const body = (kb: number) => `${"x".repeat(1000)}\r\n`.repeat(kb);
    // A slow sender holds 80 KB of an unfinished message.
    const slow = await begin("127.0.0.1");
    slow.write(`Subject: held\r\n\r\n${body(80)}`);
    await sleep(300);
    // 40 KB more does not fit beside it: a temporary failure, nothing stored.
    const other = await begin("127.0.0.2");
    expect(await other.cmd(`Subject: squeezed\r\n\r\n${body(40)}.`)).toMatch(/^452 4\.3\.1 /);
    // The first finishes and is stored; its bytes are given back, so the retry fits.
    expect(await slow.cmd(".")).toMatch(/^250 /);
    expect(await other.cmd("MAIL FROM:<big@sender.example>")).toMatch(/^250 /);
    expect(await other.cmd(`RCPT TO:<${address}>`)).toMatch(/^250 /);
    expect(await other.cmd("DATA")).toMatch(/^354 /);
    expect(await other.cmd(`Subject: squeezed\r\n\r\n${body(40)}.`)).toMatch(/^250 /);
    const subjects = await db
      .select({ subject: mailMessages.subject })
      .from(mailMessages)
      .where(inArray(mailMessages.subject, ["held", "squeezed"]));
    expect(subjects.map((r) => r.subject).sort()).toEqual(["held", "squeezed"]);

    // A sender that goes away in the middle of its message gives its bytes back too.
    const quitter = await begin("127.0.0.3");
    quitter.write(`Subject: abandoned\r\n\r\n${body(80)}`);
    await sleep(300);
    await quitter.close();
    await sleep(300);
    const after = await begin("127.0.0.2");
    expect(await after.cmd(`Subject: after\r\n\r\n${body(40)}.`)).toMatch(/^250 /);
  });

  it("lets a client that keeps sending whole commands stay past the command timeout", async () => {
    await listen({ SMTP_IDLE_TIMEOUT_MS: "1000", SMTP_COMMAND_TIMEOUT_MS: "1500" });
    const { conn } = await connectFrom("127.0.0.1");
    for (let i = 0; i < 6; i++) {
      expect(await conn.cmd("NOOP")).toMatch(/^250 /);
      await sleep(500);
    }
    expect(conn.isClosed).toBe(false);
  });
});
