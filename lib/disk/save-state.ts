import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/disk/field-error";
import { dotSegmentProblem, keyProblem, stateKey } from "@/lib/disk/key-rules";
import { NOTE_MAX_CHARS } from "@/lib/disk/limits";
import { writeEntry } from "@/lib/disk/write-entry";

/** Why `taskId` cannot name a state (its key `state/{task_id}` must follow the key rules), or null. */
export function taskIdProblem(taskId: string): string | null {
  if (taskId.length === 0) return "must not be empty";
  const problem = keyProblem(stateKey(taskId));
  return problem?.startsWith("must be at most") ? "makes the key state/{task_id} longer than 512 bytes" : problem;
}

/** state_save: replaces the state of a task; it never expires. */
export async function saveState(db: Executor, opts: { actor: Actor; taskId: string; state: unknown; note?: string; ifVersion?: number }) {
  const problem = taskIdProblem(opts.taskId) ?? dotSegmentProblem(opts.taskId);
  if (problem) throw fieldError("task_id", problem);
  // Characters as the tool's schema counts them (zod counts code points): an emoji is one, not two UTF-16 units.
  if (opts.note !== undefined && opts.note.length > NOTE_MAX_CHARS && [...opts.note].length > NOTE_MAX_CHARS) {
    throw fieldError("note", `must be at most ${NOTE_MAX_CHARS} characters`);
  }
  const key = stateKey(opts.taskId);
  const row = await writeEntry(db, { actor: opts.actor, key, value: opts.state, valueField: "state", note: opts.note ?? null, ifVersion: opts.ifVersion });
  return { task_id: opts.taskId, key, saved_at: row.updatedAt.toISOString(), version: row.version };
}
