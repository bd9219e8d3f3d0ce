import type { Executor } from "@/lib/db/client";
import { ledgerHeads } from "@/lib/db/schema/ledger";
import { appendEntry } from "@/lib/ledger/append-entry";
import { GENESIS_HASH } from "@/lib/ledger/canonical";

/**
 * A new project's chain: its head at genesis, and its first entry, `project.create`, by the owner who created it —
 * whichever pipeline did (the dashboard, setup, a headless start), the chain of a project begins the same way.
 */
export async function openChain(tx: Executor, project: { id: string; name: string }, owner: { id: string; email: string }): Promise<void> {
  await tx.insert(ledgerHeads).values({ projectId: project.id, seq: 0, hash: GENESIS_HASH });
  await appendEntry(tx, {
    actor: { type: "owner", projectId: project.id, id: owner.id, keyId: null, scopes: [], agent: owner.email, platform: null, via: "dashboard" },
    op: "project.create",
    subject: project.id,
    input: { name: project.name },
  });
}
