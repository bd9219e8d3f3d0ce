import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type Owner, owners } from "@/lib/db/schema/owners";
import { unstorableText } from "@/lib/db/storable";
import { projects } from "@/lib/db/schema/projects";
import { verifyPassword } from "@/lib/owners/password";

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Constant work whether or not the email exists, so timing does not reveal accounts. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3sGtTHuz7JshJv3hoe3tEBYYdPjBqV7m1DGnMYyWc3o";

/**
 * The owner signing in with this email, if any. An email PostgreSQL cannot hold (a NUL, sent by Basic credentials
 * or the sign-in form) is no owner's: in the query it failed the request as a 500 instead of a wrong credential.
 */
export async function ownerByEmail(db: Executor, email: string): Promise<Owner | undefined> {
  const normalised = normaliseEmail(email);
  if (unstorableText(normalised)) return undefined;
  const [owner] = await db.select().from(owners).where(eq(owners.email, normalised));
  return owner;
}

export async function checkOwnerPassword(db: Executor, email: string, password: string) {
  const owner = await ownerByEmail(db, email);
  const ok = await verifyPassword(owner?.passwordHash ?? DUMMY_HASH, password);
  return ok && owner ? owner : null;
}

export async function ownerExists(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: owners.id }).from(owners).limit(1);
  return rows.length > 0;
}

export const ownerProjects = (db: Executor, ownerId: string) =>
  db.select().from(projects).where(eq(projects.ownerId, ownerId)).orderBy(asc(projects.createdAt));
