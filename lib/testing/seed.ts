import { getDb } from "@/lib/db/client";
import { createKey } from "@/lib/keys/create-key";
import { ledgeredTransaction } from "@/lib/ledger/ledgered-transaction";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { createKeyRoute } from "@/lib/owner-api/keys";
import { createFirstOwner } from "@/lib/owners/create-owner";
import { createProject } from "@/lib/projects/create-project";
import { ownerActor } from "@/lib/owner-api/owner-actor";
import { allScopes } from "@/lib/keys/scopes";
import type { Owner } from "@/lib/db/schema/owners";

export const OWNER_EMAIL = "owner@example.com";
export const OWNER_PASSWORD = "correct horse battery staple";

let owner: Owner | undefined;

/** The instance owner (created once per test database). */
export async function seedOwner(): Promise<Owner> {
  if (owner) return owner;
  const db = await getDb();
  const made = await db.transaction((tx) => createFirstOwner(tx, { email: OWNER_EMAIL, password: OWNER_PASSWORD, projectName: "Test project" }));
  owner = made.owner;
  return owner;
}

/** A fresh project of the owner with one key holding `scopes` (default: every scope). */
export async function seedProject(opts: { scopes?: string[]; name?: string } = {}) {
  const o = await seedOwner();
  const db = await getDb();
  return db.transaction(async (tx) => {
    const project = await createProject(tx, { ownerId: o.id, ownerEmail: o.email, name: opts.name ?? "Project" });
    const actor = await ownerActor(tx, o, project.id, "dashboard");
    // As the API keys screen does it: through the owner pipeline, which ledgers `key.create`.
    const input = { name: "test key", scopes: opts.scopes ?? [...allScopes] };
    const { key, secret } = await ledgeredTransaction(tx, { actor, op: routeOp(createKeyRoute), input }, async (t, entry) => {
      const created = await createKey(t, { actor, ...input });
      entry.subject = created.key.id;
      return created;
    });
    return { project, owner: o, actor, key, secret };
  });
}

/** Another key on the same project. */
export async function seedKey(projectId: string, scopes: string[], name = "another key") {
  const o = await seedOwner();
  const db = await getDb();
  return db.transaction(async (tx) => createKey(tx, { actor: await ownerActor(tx, o, projectId, "dashboard"), name, scopes }));
}
