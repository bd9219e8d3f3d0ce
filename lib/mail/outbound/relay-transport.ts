import nodemailer, { type SentMessageInfo, type Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { sha256Hex } from "@/lib/crypto/hash";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import type { RelayConfig } from "@/lib/mail/outbound/relay-config";

const g = globalThis as { __brynthRelayPools?: Map<string, Transporter> };

/** nodemailer options for a relay: `none` still upgrades when STARTTLS is offered; `starttls` insists on it. */
export function transportOptions(r: RelayConfig) {
  return {
    host: r.host,
    port: r.port,
    secure: r.security === "tls",
    requireTLS: r.security === "starttls",
    auth: r.username ? { user: r.username, pass: r.password ?? "" } : undefined,
    name: mailHostname(),
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  };
}

/**
 * A pooled transport per relay configuration (kept on globalThis), so consecutive deliveries reuse SMTP connections.
 * A changed configuration gets a new pool; the old one is closed.
 */
export function relayTransport(r: RelayConfig, scope: string): Transporter {
  g.__brynthRelayPools ??= new Map();
  const key = `${scope}:${sha256Hex(JSON.stringify(transportOptions(r)))}`;
  let t = g.__brynthRelayPools.get(key);
  if (!t) {
    for (const [k, old] of g.__brynthRelayPools) {
      if (k.startsWith(`${scope}:`)) {
        old.close();
        g.__brynthRelayPools.delete(k);
      }
    }
    t = nodemailer.createTransport({ ...transportOptions(r), pool: true, maxConnections: 4, maxMessages: 500 });
    t.use("stream", watchBody);
    g.__brynthRelayPools.set(key, t);
  }
  return t;
}

/** Closes every pool (shutdown, tests). */
export function closeRelayTransports() {
  for (const t of g.__brynthRelayPools?.values() ?? []) t.close();
  g.__brynthRelayPools?.clear();
}

/** `signal` (nodemailer's own, not in its types): aborted, the send fails and its pooled connection is closed. */
type WatchedMail = Mail.Options & { onBodySent?: () => void; signal?: AbortSignal };

/**
 * nodemailer pipes a message's final stream into the SMTP DATA stream only after the relay's 354, so that stream
 * ending means the whole body was handed to the connection: from then on a lost connection may have delivered.
 */
const watchBody: Mail.PluginFunction = (mail, done) => {
  const onBodySent = (mail.data as WatchedMail).onBodySent;
  if (onBodySent) {
    mail.message.processFunc((output) => {
      output.once("end", onBodySent);
      return output;
    });
  }
  done();
};

/**
 * One SMTP transaction of signed bytes through a relay pool; a failure says whether the whole body had gone out.
 * `signal` (the job's deadline, or its runner stopping) ends it: a relay trickling its replies a byte at a time
 * resets every socket timeout, and held the delivery's slot for as long as it liked (found by helper-104).
 */
export async function sendRaw(
  t: Transporter,
  o: { from: string; to: string[]; raw: Buffer; signal?: AbortSignal },
): Promise<{ info: SentMessageInfo } | { error: unknown; bodySent: boolean }> {
  let bodySent = false;
  const mail: WatchedMail = { envelope: { from: o.from, to: o.to }, raw: o.raw, onBodySent: () => (bodySent = true), signal: o.signal };
  try {
    return { info: await t.sendMail(mail) };
  } catch (error) {
    return { error, bodySent };
  }
}
