import nodemailer, { type Transporter } from "nodemailer";
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
    g.__brynthRelayPools.set(key, t);
  }
  return t;
}

/** Closes every pool (shutdown, tests). */
export function closeRelayTransports() {
  for (const t of g.__brynthRelayPools?.values() ?? []) t.close();
  g.__brynthRelayPools?.clear();
}
