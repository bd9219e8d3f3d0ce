import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { ConfigError, env } from "@/lib/env";

export interface SmtpTls {
  cert: string;
  key: string;
}

/**
 * The certificate the SMTP listener offers with STARTTLS: SMTP_TLS_CERT and SMTP_TLS_KEY (PEM files), read once at
 * start; null when neither is set (no STARTTLS). Anything wrong with them stops the start with a ConfigError naming
 * the setting: an instance that silently falls back to plaintext, or to smtp-server's built-in certificate (whose
 * private key is public), is worse than one that does not start.
 */
export function loadSmtpTls(): SmtpTls | null {
  const { SMTP_TLS_CERT: certPath, SMTP_TLS_KEY: keyPath } = env();
  if (!certPath && !keyPath) return null;
  if (!certPath) throw new ConfigError("SMTP_TLS_KEY is set but SMTP_TLS_CERT is not: STARTTLS needs both (PEM files).");
  if (!keyPath) throw new ConfigError("SMTP_TLS_CERT is set but SMTP_TLS_KEY is not: STARTTLS needs both (PEM files).");
  const cert = readPem("SMTP_TLS_CERT", certPath);
  const key = readPem("SMTP_TLS_KEY", keyPath);
  check("SMTP_TLS_CERT", certPath, "is not a PEM certificate", () => new X509Certificate(cert));
  check("SMTP_TLS_KEY", keyPath, "is not a PEM private key", () => createPrivateKey(key));
  check("SMTP_TLS_KEY", keyPath, "is not the private key of the certificate in SMTP_TLS_CERT", () => createSecureContext({ cert, key }));
  return { cert, key };
}

function readPem(variable: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
  }
}

function check(variable: string, path: string, problem: string, parse: () => unknown) {
  try {
    parse();
  } catch (err) {
    throw new ConfigError(`${variable}: ${path} ${problem} (${err instanceof Error ? err.message : String(err)}).`);
  }
}
