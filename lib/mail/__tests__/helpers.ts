import type { AddressInfo, Socket } from "node:net";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { SMTPServer } from "smtp-server";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema/events";
import type { MailDomain } from "@/lib/db/schema/mail";
import { addSource } from "@/lib/sources/add-source";
import type { Actor } from "@/lib/actor";
import type { MailDnsResolver } from "@/lib/mail/inbound/dns-resolver";

const notFound = (name: string) => Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });

/** A DNS for mailauth that knows only the given TXT records: everything else does not exist. */
export function fakeResolver(txt: Record<string, string> = {}): MailDnsResolver {
  return async (name, rrtype) => {
    const value = rrtype === "TXT" ? txt[name.toLowerCase()] : undefined;
    if (value === undefined) throw notFound(name);
    return [[value]];
  };
}

/** The TXT record a domain row publishes for DKIM, as a resolver entry. */
export const dkimTxt = (d: Pick<MailDomain, "domain" | "dkimSelector" | "dkimPublicKey">) => ({
  [`${d.dkimSelector}._domainkey.${d.domain}`]: `v=DKIM1; k=rsa; p=${d.dkimPublicKey}`,
});

/** Sends one message to an SMTP port with nodemailer (no TLS). */
export async function sendTo(port: number, mail: Mail.Options & { envelope?: { from: string; to: string[] } }) {
  const t = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, tls: { rejectUnauthorized: false } });
  try {
    return await t.sendMail(mail);
  } finally {
    t.close();
  }
}

export interface SinkMessage {
  from: string;
  to: string[];
  raw: Buffer;
}

type SinkAnswer = { code: number; message: string } | "drop" | null;

/**
 * A second SMTP server playing the relay: it keeps what arrives. `answer` may refuse a message at the end of DATA
 * with a code (e.g. 550 or 451) to test permanent and temporary failures, or `"drop"` the connection after reading
 * the whole body, before answering (the relay may or may not have kept it); `rcpt` may refuse single recipients
 * or drop the connection at RCPT (before any body: safe to retry).
 * `bodies` counts every message whose body arrived, kept, refused or dropped.
 */
export async function startSink(answer?: (msg: SinkMessage) => SinkAnswer, opts: { rcpt?: (address: string) => SinkAnswer } = {}) {
  const received: SinkMessage[] = [];
  const bodies: SinkMessage[] = [];
  const logins: Array<{ username?: string; password?: string }> = [];
  const sockets = new Map<number, Socket>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      logins.push({ username: auth.username ?? undefined, password: auth.password ?? undefined });
      cb(null, { user: auth.username ?? "relay-user" });
    },
    onRcptTo(address, session, cb) {
      const refusal = opts.rcpt?.(address.address);
      if (refusal === "drop") return sockets.get(session.remotePort)?.destroy();
      if (refusal) return cb(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const msg = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        };
        bodies.push(msg);
        const refusal = answer?.(msg);
        if (refusal === "drop") return sockets.get(session.remotePort)?.destroy();
        if (refusal) return cb(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        received.push(msg);
        cb();
      });
    },
  });
  server.server.on("connection", (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.once("close", () => sockets.delete(port));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, bodies, logins, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The project's email source (the events module's source_add), so mail to the project address becomes events. */
export async function addEmailSource(actor: Actor) {
  const db = await getDb();
  return db.transaction((tx) => addSource(tx, { actor, type: "email", name: "email" }));
}

export async function latestEvents(projectId: string, type?: string) {
  const db = await getDb();
  const rows = await db.select().from(events).where(eq(events.projectId, projectId)).orderBy(desc(events.receivedAt));
  return rows.filter((r) => !type || r.type === type).map((r) => ({ ...r, payload: r.payload as Record<string, any> }));
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
