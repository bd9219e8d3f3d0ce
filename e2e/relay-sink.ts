import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One message as the relay received it: the SMTP envelope, the bytes (for DKIM checks) and the parsed mail. */
export interface RelayedMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  mail: ParsedMail;
}

export interface RelaySink {
  /** On 127.0.0.1; enter it as the relay's port on the Mail settings screen, with TLS "None". */
  port: number;
  /** Everything received so far, in arrival order. */
  messages: RelayedMessage[];
  /** The first message (already received or still to come) the predicate accepts. */
  waitFor(predicate: (m: RelayedMessage) => boolean, timeoutMs?: number): Promise<RelayedMessage>;
  close(): Promise<void>;
}

/**
 * An SMTP server playing the owner's relay provider: plain SMTP (no STARTTLS offered, so the instance does not try
 * to upgrade against a self-signed certificate), any login or none, every message kept.
 */
export async function startRelaySink(): Promise<RelaySink> {
  const messages: RelayedMessage[] = [];
  const waiters = new Set<(m: RelayedMessage) => void>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // The instance keeps its relay connections pooled and open: at close, drop them at once instead of after 30 s.
    closeTimeout: 1,
    onAuth: (auth, _session, cb) => cb(null, { user: auth.username ?? "relay-user" }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", cb);
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        try {
          const m = { envelope, raw, mail: await simpleParser(raw) };
          messages.push(m);
          for (const w of waiters) w(m);
          cb();
        } catch (err) {
          cb(err as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    messages,
    waitFor(predicate, timeoutMs = 30_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the relay sink got no matching message within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const waiter = (m: RelayedMessage) => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(m);
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
