import type { Executor } from "@/lib/db/client";
import { ledgerHeads } from "@/lib/db/schema/ledger";
import { projects } from "@/lib/db/schema/projects";
import { newId } from "@/lib/ids";
import { appendEntry } from "@/lib/ledger/append-entry";
import { GENESIS_HASH } from "@/lib/ledger/canonical";

/** `ownerEmail` is the agent label the ledger shows for owner actions. */
export async function createProject(tx: Executor, opts: { ownerId: string; ownerEmail: string; name: string }) {
  const [project] = await tx.insert(projects).values({ id: newId("prj"), name: opts.name, ownerId: opts.ownerId }).returning();
  await tx.insert(ledgerHeads).values({ projectId: project.id, seq: 0, hash: GENESIS_HASH });
  await appendEntry(tx, {
    actor: {
      type: "owner",
      projectId: project.id,
      id: opts.ownerId,
      keyId: null,
      scopes: [],
      agent: opts.ownerEmail,
      platform: null,
      via: "dashboard",
    },
    op: "project.create",
    subject: project.id,
    input: { name: opts.name },
  });
  return project;
}
