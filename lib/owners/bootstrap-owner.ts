import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { createFirstOwner } from "@/lib/owners/create-owner";
import { ownerExists } from "@/lib/owners/find-owner";
import { issueSetupToken } from "@/lib/owners/setup-token";

/**
 * At start: nothing to do once an owner exists; a headless install creates the owner from OWNER_EMAIL and
 * OWNER_PASSWORD; otherwise a one-time setup link is printed.
 */
export async function bootstrapOwner(log: (line: string) => void = console.log): Promise<void> {
  const db = await getDb();
  if (await ownerExists(db)) return;
  const { OWNER_EMAIL, OWNER_PASSWORD, publicUrl } = env();
  if (OWNER_EMAIL && OWNER_PASSWORD) {
    try {
      await db.transaction((tx) => createFirstOwner(tx, { email: OWNER_EMAIL, password: OWNER_PASSWORD, projectName: "Default" }));
      log(`Owner ${OWNER_EMAIL} created from OWNER_EMAIL/OWNER_PASSWORD.`);
    } catch (err) {
      // Another instance starting at the same moment created it first.
      if (!(await ownerExists(db))) throw err;
    }
    return;
  }
  const token = await issueSetupToken(db);
  log(`\n  First start: create the owner account at\n  ${publicUrl}/setup?token=${token}\n  (one-time link, valid 24 hours)\n`);
}
