import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailDomains, type MailDomain } from "@/lib/db/schema/mail";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { afterCommit } from "@/lib/db/transaction";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { newId } from "@/lib/ids";
import { defaultMailDomain } from "@/lib/mail/domains/mail-domain-name";
import { dkimSelector, generateDkimKey } from "@/lib/mail/domains/generate-dkim-key";

const g = globalThis as { __brynthDefaultDomain?: Map<string, MailDomain> };

/**
 * The row of MAIL_DOMAIN (instance-wide: no project), created with its DKIM key on first use. Cached per process
 * once the caller's transaction commits (a row made in one that rolls back must not be remembered: every later
 * mailbox would name a domain that does not exist); the row never changes once made (its DNS check result is read
 * fresh by the Domains screen).
 */
export async function ensureDefaultDomain(db: Executor): Promise<MailDomain> {
  const name = defaultMailDomain();
  g.__brynthDefaultDomain ??= new Map();
  const cached = g.__brynthDefaultDomain.get(name);
  if (cached) return cached;
  let [row] = await db
    .select()
    .from(mailDomains)
    .where(and(eq(mailDomains.domain, name), isNull(mailDomains.projectId)));
  if (!row) {
    const key = await generateDkimKey();
    const id = newId("dom");
    await db
      .insert(mailDomains)
      .values({
        id,
        projectId: null,
        domain: name,
        dkimSelector: dkimSelector(),
        dkimPrivateKeyEnc: encryptSecret(key.privatePem, secretSlot(mailDomains.dkimPrivateKeyEnc, id)),
        dkimPublicKey: key.publicBase64,
      })
      .onConflictDoNothing();
    // A concurrent first use may have won the unique index: read whichever row exists.
    [row] = await db.select().from(mailDomains).where(eq(mailDomains.domain, name));
  }
  if (row.projectId !== null) throw new Error(`MAIL_DOMAIN ${name} is registered as a project's custom domain`);
  const found = row;
  afterCommit(db, () => {
    g.__brynthDefaultDomain?.set(name, found);
  });
  return row;
}
