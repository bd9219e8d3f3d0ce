import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";
import { projects } from "@/lib/db/schema/projects";
import { randomBase62, newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";

/** Local parts nobody gets: role addresses (RFC 2142) and names that look like the system. */
export const RESERVED = new Set([
  "postmaster",
  "abuse",
  "hostmaster",
  "webmaster",
  "mailer-daemon",
  "root",
  "admin",
  "noreply",
  "no-reply",
  "bounce",
  "bounces",
  "security",
  "brynth",
]);

/** A readable local part from the project name: `Acme Support` → `acme-support`. */
export function localPartFor(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug && !RESERVED.has(slug) ? slug : "project";
}

/**
 * The project's default mailbox: the project address (spec: the email source's `address`), created on first use
 * as `<project-name>@MAIL_DOMAIN` (with a short random suffix when the name is taken). Safe under concurrency:
 * the partial unique indexes decide, and a loser reads the winner's row.
 */
export async function defaultMailbox(db: Executor, projectId: string): Promise<Mailbox> {
  const existing = await findDefaultMailbox(db, projectId);
  if (existing) return existing;
  const domain = await ensureDefaultDomain(db);
  const [project] = await db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
  if (!project) throw new Error(`no project ${projectId}`);
  const base = localPartFor(project.name);
  for (let attempt = 0; attempt < 8; attempt++) {
    const local = attempt === 0 ? base : `${base}-${randomBase62(5).toLowerCase()}`;
    const [row] = await db
      .insert(mailboxes)
      .values({
        id: newId("mbx"),
        projectId,
        domainId: domain.id,
        localPart: local,
        address: `${local}@${domain.domain}`,
        displayName: project.name,
        isDefault: true,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const raced = await findDefaultMailbox(db, projectId);
    if (raced) return raced;
  }
  throw new Error("could not find a free address for the project");
}

/** The project address, e.g. `acme-support@brynth.localhost`. */
export async function projectAddress(db: Executor, projectId: string): Promise<string> {
  return (await defaultMailbox(db, projectId)).address;
}

async function findDefaultMailbox(db: Executor, projectId: string): Promise<Mailbox | null> {
  const [row] = await db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.projectId, projectId), eq(mailboxes.isDefault, true), isNull(mailboxes.deletedAt)));
  return row ?? null;
}
