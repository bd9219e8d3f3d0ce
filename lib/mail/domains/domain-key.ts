import { createPrivateKey, type KeyObject } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailDomains } from "@/lib/db/schema/mail";
import { decryptSecret, UnreadableSecretError } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";

export interface SigningKey {
  domain: string;
  selector: string;
  /**
   * Parsed once per process: OpenSSL takes about 0.3 ms to parse an RSA key, more than the signature itself, and a
   * PEM string handed to a signer is parsed again on every message.
   */
  privateKey: KeyObject;
}

const g = globalThis as { __brynthDkimKeys?: Map<string, SigningKey> };

function dkimPrivateKey(sealed: string, id: string, domain: string): string {
  try {
    return decryptSecret(sealed, secretSlot(mailDomains.dkimPrivateKeyEnc, id));
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    throw new AppError("service_unavailable", `Mail from ${domain} cannot be DKIM-signed: ${err.message}`, {
      fix: "Remove the custom domain and add it again (a new DKIM key to publish in DNS); for MAIL_DOMAIN, start with the APP_SECRET it was made under.",
    });
  }
}

/** The DKIM signing key of a domain row, decrypted and parsed once per process (keys never change for a given row). */
export async function signingKey(db: Executor, domainId: string): Promise<SigningKey> {
  g.__brynthDkimKeys ??= new Map();
  const cached = g.__brynthDkimKeys.get(domainId);
  if (cached) return cached;
  const [row] = await db.select().from(mailDomains).where(eq(mailDomains.id, domainId));
  if (!row) throw new Error(`mail domain ${domainId} not found`);
  const key = { domain: row.domain, selector: row.dkimSelector, privateKey: createPrivateKey(dkimPrivateKey(row.dkimPrivateKeyEnc, row.id, row.domain)) };
  g.__brynthDkimKeys.set(domainId, key);
  return key;
}
