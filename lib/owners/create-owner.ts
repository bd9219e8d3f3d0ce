import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { owners } from "@/lib/db/schema/owners";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { normaliseEmail, ownerExists } from "@/lib/owners/find-owner";
import { hashPassword } from "@/lib/owners/password";
import { createProject } from "@/lib/projects/create-project";

/** Serialises first-owner creation across instances: only one setup can ever win. */
const SETUP_LOCK = 7_224_302;

/** Creates the instance's first owner and project; refused once any owner exists. */
export async function createFirstOwner(tx: Executor, opts: { email: string; password: string; projectName: string }) {
  await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
  if (await ownerExists(tx)) {
    throw new AppError("forbidden", "This instance already has an owner.", { fix: "Sign in instead." });
  }
  const [owner] = await tx
    .insert(owners)
    .values({ id: newId("own"), email: normaliseEmail(opts.email), passwordHash: await hashPassword(opts.password) })
    .returning();
  const project = await createProject(tx, { ownerId: owner.id, ownerEmail: owner.email, name: opts.projectName });
  return { owner, project };
}
