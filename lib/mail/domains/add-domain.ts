import { eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailDomains } from "@/lib/db/schema/mail";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseOrThrow } from "@/lib/validation";
import { z } from "zod";
import { defaultMailDomain, domainName } from "@/lib/mail/domains/mail-domain-name";
import { dkimSelector, generateDkimKey } from "@/lib/mail/domains/generate-dkim-key";

/**
 * A custom domain for the project, with a fresh DKIM key. It receives mail and signs outbound only once its DNS is
 * checked (verified); one domain belongs to one project on the instance.
 */
export async function addDomain(db: Executor, opts: { actor: Actor; domain: string }) {
  const { domain } = parseOrThrow(z.object({ domain: domainName }), { domain: opts.domain });
  if (domain === defaultMailDomain()) {
    throw new AppError("CONFLICT", `${domain} is this instance's default mail domain already.`, { fix: "Add a domain of your own, e.g. mail.example.com." });
  }
  // Across projects on purpose: a domain belongs to one project on the instance.
  const [taken] = await db.select({ id: mailDomains.id }).from(mailDomains).where(eq(mailDomains.domain, domain));
  if (taken)
    throw new AppError("CONFLICT", `${domain} is already registered on this instance.`, {
      fix: "Each domain can belong to one project; remove it there first.",
    });
  const key = await generateDkimKey();
  const id = newId("dom");
  const [row] = await db
    .insert(mailDomains)
    .values({
      id,
      projectId: opts.actor.projectId,
      domain,
      dkimSelector: dkimSelector(),
      dkimPrivateKeyEnc: encryptSecret(key.privatePem, secretSlot(mailDomains.dkimPrivateKeyEnc, id)),
      dkimPublicKey: key.publicBase64,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError("CONFLICT", `${domain} was just registered by someone else.`, { fix: "Reload the Domains screen." });
  return row;
}
