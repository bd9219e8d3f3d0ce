import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { findEntry } from "@/lib/disk/get-key";
import { stateKey } from "@/lib/disk/key-rules";

/** state_load: the last saved state of a task, or nulls when none was saved or it was deleted. */
export async function loadState(db: Executor, opts: { actor: Actor; taskId: string }) {
  const row = await findEntry(db, { actor: opts.actor, key: stateKey(opts.taskId) });
  return {
    task_id: opts.taskId,
    state: row ? (JSON.parse(row.value) as unknown) : null,
    note: row?.note ?? null,
    saved_at: row?.updatedAt.toISOString() ?? null,
    version: row?.version ?? null,
  };
}
