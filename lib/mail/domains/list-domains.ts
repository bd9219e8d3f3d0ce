import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailDomains, type MailDomain } from "@/lib/db/schema/mail";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { dnsRecords } from "@/lib/mail/domains/dns-records";

/** The default domain (fresh from the database: its DNS check changes) and the project's custom domains. */
export async function listDomains(db: Executor, opts: { projectId: string }) {
  const def = await ensureDefaultDomain(db);
  const [fresh] = await db.select().from(mailDomains).where(eq(mailDomains.id, def.id));
  const custom = await db.select().from(mailDomains).where(eq(mailDomains.projectId, opts.projectId)).orderBy(asc(mailDomains.domain));
  const view = (d: MailDomain, isDefault: boolean) => ({
    id: d.id,
    domain: d.domain,
    isDefault,
    verified: isDefault || d.verifiedAt !== null,
    verifiedAt: d.verifiedAt,
    dnsCheck: d.dnsCheck,
    records: dnsRecords(d),
    createdAt: d.createdAt,
  });
  return [view(fresh ?? def, true), ...custom.map((d) => view(d, false))];
}
export type DomainView = Awaited<ReturnType<typeof listDomains>>[number];
