import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains, type Mailbox } from "@/lib/db/schema/mail";
import { sources } from "@/lib/db/schema/events";
import { asciiAddress, asciiDomain, defaultMailDomain } from "@/lib/mail/domains/mail-domain-name";
import { defaultMailbox } from "@/lib/mail/project-address";
import { verifiedDomain } from "@/lib/mail/inbound/statements";

export type Recipient =
  | { kind: "mailbox"; mailbox: Mailbox }
  | { kind: "foreign" } // not a domain of this instance: relaying is refused
  | { kind: "unknown" }; // our domain, no such (active) mailbox

/**
 * What an RCPT TO address is here. Ours: MAIL_DOMAIN, and custom domains once verified. One query: the domain row
 * with the mailbox of that exact address, if any.
 */
export async function resolveRecipient(db: Executor, address: string): Promise<Recipient> {
  const addr = asciiAddress(address);
  const at = addr.lastIndexOf("@");
  if (at <= 0 || at === addr.length - 1) return { kind: "unknown" };
  const domain = addr.slice(at + 1);
  const [row] = await db
    .select({ d: { projectId: mailDomains.projectId, verifiedAt: mailDomains.verifiedAt }, m: mailboxes })
    .from(mailDomains)
    .leftJoin(mailboxes, and(eq(mailboxes.domainId, mailDomains.id), eq(mailboxes.address, addr), isNull(mailboxes.deletedAt), eq(mailboxes.status, "active")))
    .where(eq(mailDomains.domain, domain))
    .limit(1);
  const ours = row && (row.d.projectId === null ? domain === defaultMailDomain() : row.d.verifiedAt !== null);
  if (ours && row.m) return { kind: "mailbox", mailbox: row.m };
  const alias = await sourceAlias(db, addr);
  if (alias) return { kind: "mailbox", mailbox: alias };
  // MAIL_DOMAIN is ours even before its row exists (no project address handed out yet): unknown, not foreign.
  return ours || domain === defaultMailDomain() ? { kind: "unknown" } : { kind: "foreign" };
}

/**
 * An email source whose stored `address` is not a mailbox (sources made before the events module took the address
 * from projectAddress): mail to exactly that address reaches the project's default mailbox, so what the Sources
 * screen shows always works. Only that exact address is accepted, never its domain.
 */
async function sourceAlias(db: Executor, address: string): Promise<Mailbox | null> {
  const [src] = await db
    .select({ projectId: sources.projectId })
    .from(sources)
    .where(and(eq(sources.type, "email"), isNull(sources.removedAt), sql`lower(${sources.address}) = ${address}`))
    .limit(1);
  return src ? defaultMailbox(db, src.projectId) : null;
}

/** Whether `domain` is one this instance receives for (outbound: same-instance recipients are delivered locally). */
export async function isLocalDomain(db: Executor, domain: string): Promise<boolean> {
  const d = asciiDomain(domain);
  if (d === defaultMailDomain()) return true;
  const [row] = await verifiedDomain(db, d);
  return !!row;
}
