import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { mailboxes, mailDomains, type MailDomain, type Mailbox } from "@/lib/db/schema/mail";
import { fieldError } from "@/lib/disk/field-error";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { asciiDomain, defaultMailDomain } from "@/lib/mail/domains/mail-domain-name";
import { requireUnrestricted } from "@/lib/mail/mailboxes/mailbox-scope";

export interface CreateMailboxInput {
  username?: string;
  domain?: string;
  displayName?: string;
  clientId?: string;
  status?: "active" | "disabled";
  metadata?: Record<string, string | number | boolean>;
}

/** 12 characters of [a-z0-9]: about 62 bits, so a random address practically never meets a taken one. */
const randomLocalPart = () => Array.from({ length: 12 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[randomInt(36)]).join("");

const taken = (address: string) =>
  new AppError("CONFLICT", `The address ${address} is taken.`, { fix: "Choose another username, or omit it for a random one." });

/**
 * A new mailbox of the actor's project (create_inbox; the dashboard calls it with an owner actor). The same
 * `clientId` again returns the first mailbox and writes nothing, whatever else the call says. Race-safe: the
 * partial unique indexes on the live address and on (project, client_id) decide, never a prior SELECT.
 */
export async function createMailbox(db: Executor, opts: { actor: Actor } & CreateMailboxInput): Promise<{ mailbox: Mailbox; created: boolean }> {
  const { actor } = opts;
  requireUnrestricted(actor, "create mailboxes");
  if (opts.clientId !== undefined) {
    const replay = await byClientId(db, actor.projectId, opts.clientId);
    if (replay) return { mailbox: replay, created: false };
  }
  const domain = await mailDomainFor(db, actor.projectId, opts.domain);
  for (let attempt = 0; attempt < 3; attempt++) {
    const local = opts.username ?? randomLocalPart();
    const address = `${local}@${domain.domain}`;
    const [row] = await db
      .insert(mailboxes)
      .values({
        id: newId("mbx"),
        projectId: actor.projectId,
        domainId: domain.id,
        localPart: local,
        address,
        displayName: opts.displayName ?? null,
        status: opts.status ?? "active",
        clientId: opts.clientId ?? null,
        metadata: opts.metadata ?? {},
        createdByKey: actor.type === "key" ? actor.keyId : null,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return { mailbox: row, created: true };
    // A concurrent call with the same clientId won: that one is the answer.
    if (opts.clientId !== undefined) {
      const replay = await byClientId(db, actor.projectId, opts.clientId);
      if (replay) return { mailbox: replay, created: false };
    }
    if (opts.username !== undefined) throw taken(address);
  }
  throw new AppError("CONFLICT", "Could not find a free random address.", { fix: "Retry, or pass a username." });
}

async function byClientId(db: Executor, projectId: string, clientId: string): Promise<Mailbox | null> {
  const [row] = await db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, projectId), eq(mailboxes.clientId, clientId)))
    .limit(1);
  if (!row) return null;
  // Deleted since: a retry must not bring it back, and a new mailbox under the same id would not be a replay.
  if (row.deletedAt)
    throw new AppError("CONFLICT", `The inbox created with clientId ${clientId} was deleted.`, { fix: "Use a new clientId to create another inbox." });
  return row;
}

/**
 * MAIL_DOMAIN (the default), or a custom domain of this project once its DNS is verified. Any other domain (another
 * project's included) is a validation_error naming `domain`, so one project cannot learn another's domains.
 */
async function mailDomainFor(db: Executor, projectId: string, requested: string | undefined): Promise<MailDomain> {
  const name = requested === undefined ? undefined : asciiDomain(requested.trim());
  if (name === undefined || name === defaultMailDomain()) return ensureDefaultDomain(db);
  const [row] = await db
    .select()
    .from(mailDomains)
    .where(and(eq(mailDomains.domain, name), eq(mailDomains.projectId, projectId)))
    .limit(1)
    // Held until the mailbox is in: a removal of the domain under way (it locks the row) is waited for, and the domain
    // it removed is then not found, where the insert failed on the foreign key as a 500.
    .for("key share");
  if (!row)
    throw fieldError("domain", `${name} is not a domain of this project`, `Omit domain for ${defaultMailDomain()}, or add the domain on the Domains screen.`);
  if (!row.verifiedAt)
    throw new AppError("CONFLICT", `The domain ${name} is not verified yet.`, { fix: "Verify the domain's DNS on the Domains screen, then retry." });
  return row;
}
