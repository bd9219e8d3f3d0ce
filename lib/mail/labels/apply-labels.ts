import type { Executor } from "@/lib/db/client";
import { lockLabelTargets, lockThreads, refreshThreadLabels, relabelMessages } from "@/lib/mail/labels/statements";

export interface LabelChange {
  add: readonly string[];
  remove: readonly string[];
}

/** A label both added and removed is removed (AgentMail's rule), so a call never leaves a label it also cleared. */
export function labelChange(add: readonly string[], remove: readonly string[]): LabelChange {
  const removed = new Set(remove);
  return { add: [...new Set(add)].filter((l) => !removed.has(l)), remove: [...removed] };
}

/**
 * The one way labels change: on every message of the given threads (update_thread, delete_thread's `trash`) or on
 * the given messages (update_message), then each touched thread's label union and visible_at, in the caller's
 * transaction, so no reader ever sees messages and their thread disagree. The caller has checked the labels (an
 * agent may not set system labels) and that the ids are within its scope.
 */
export async function applyLabels(
  tx: Executor,
  o: { projectId: string; change: LabelChange } & ({ threadIds: readonly string[] } | { messageIds: readonly string[] }),
): Promise<void> {
  const { add, remove } = o.change;
  if (add.length === 0 && remove.length === 0) return;
  const target = "threadIds" in o ? { threadIds: o.threadIds } : { messageIds: o.messageIds };
  if ((target.threadIds ?? target.messageIds ?? []).length === 0) return;
  // Lock, then write, then lock the threads, then recompute: each step a statement of its own, so each reads what
  // a concurrent change of the same rows committed (statements.ts says why; without it concurrent labels were lost).
  const locked = await lockLabelTargets(tx, { projectId: o.projectId, ...target });
  if (locked.length === 0) return;
  const changed = await relabelMessages(tx, { projectId: o.projectId, messageIds: locked.map((m) => m.id), add, remove });
  const threads = [...new Set(changed.map((r) => r.threadId))];
  if (threads.length === 0) return;
  await lockThreads(tx, o.projectId, threads);
  await refreshThreadLabels(tx, o.projectId, threads);
}
