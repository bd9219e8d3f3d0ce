import type { Executor } from "@/lib/db/client";
import { mailRelays, type RelaySecurity } from "@/lib/db/schema/mail";
import { decryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/env";
import { projectRelay } from "@/lib/mail/outbound/statements";

export interface RelayConfig {
  host: string;
  port: number;
  security: RelaySecurity;
  username: string | null;
  password: string | null;
  /** Where it came from: the project's Mail settings, or SMTP_RELAY_URL. */
  origin: "project" | "env";
}

/** The relay a project's outside mail goes through, or null (then only same-instance recipients can be reached). */
export async function relayFor(db: Executor, projectId: string): Promise<RelayConfig | null> {
  const [row] = await projectRelay(db, projectId);
  if (row) {
    return {
      host: row.host,
      port: row.port,
      security: row.security,
      username: row.username,
      password: row.passwordEnc ? relayPassword(row.passwordEnc, row.projectId) : null,
      origin: "project",
    };
  }
  return envRelay();
}

function relayPassword(sealed: string, projectId: string): string {
  try {
    return decryptSecret(sealed, secretSlot(mailRelays.passwordEnc, projectId));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    throw new AppError("service_unavailable", `The SMTP relay's stored password cannot be used: ${err.message}`, {
      fix: "Ask the owner to enter the relay password again on the Mail settings screen.",
    });
  }
}

/**
 * SMTP_RELAY_URL: `smtps://` is implicit TLS (default port 465); `smtp://` upgrades with STARTTLS when the relay
 * offers it (default port 587), `?starttls=required` makes that mandatory.
 */
export function envRelay(): RelayConfig | null {
  const raw = env().SMTP_RELAY_URL;
  if (!raw) return null;
  const url = new URL(raw);
  const tls = url.protocol === "smtps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : tls ? 465 : 587,
    security: tls ? "tls" : url.searchParams.get("starttls") === "required" ? "starttls" : "none",
    username: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    origin: "env",
  };
}
