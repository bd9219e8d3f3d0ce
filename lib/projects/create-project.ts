import type { Executor } from "@/lib/db/client";
import { projects } from "@/lib/db/schema/projects";
import { newId } from "@/lib/ids";
import { openChain } from "@/lib/ledger/open-chain";

/** A project and its ledger chain; `ownerEmail` is the agent label the ledger shows for the owner's acts. */
export async function createProject(tx: Executor, opts: { ownerId: string; ownerEmail: string; name: string }) {
  const [project] = await tx
    .insert(projects)
    .values({ id: newId("prj"), name: opts.name, ownerId: opts.ownerId })
    .returning();
  await openChain(tx, project, { id: opts.ownerId, email: opts.ownerEmail });
  return project;
}
