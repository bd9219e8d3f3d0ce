import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailDomains } from "@/lib/db/schema/mail";
import { decryptSecret } from "@/lib/crypto/secret-box";

export interface SigningKey {
  domain: string;
  selector: string;
  privateKey: string;
}

const g = globalThis as { __brynthDkimKeys?: Map<string, SigningKey> };

/** The DKIM signing key of a domain row, decrypted once per process (keys never change for a given row). */
export async function signingKey(db: Executor, domainId: string): Promise<SigningKey> {
  g.__brynthDkimKeys ??= new Map();
  const cached = g.__brynthDkimKeys.get(domainId);
  if (cached) return cached;
  const [row] = await db.select().from(mailDomains).where(eq(mailDomains.id, domainId));
  if (!row) throw new Error(`mail domain ${domainId} not found`);
  const key = { domain: row.domain, selector: row.dkimSelector, privateKey: decryptSecret(row.dkimPrivateKeyEnc) };
  g.__brynthDkimKeys.set(domainId, key);
  return key;
}
