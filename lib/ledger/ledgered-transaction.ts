import type { Actor } from "@/lib/actor";
import type { Db, Tx } from "@/lib/db/client";
import { appendEntry } from "@/lib/ledger/append-entry";

/** What a pipeline's work tells its entry while it runs: the object it touched (the entry's `subject`). */
export interface EntrySubject {
  subject: string | null;
}

/**
 * A pipeline's call that changes something: `work` in one transaction with the entry of the `op` the pipeline
 * declared (none: nothing to record), so the change and its entry commit together or neither does. The entry
 * digests the call's input and the output `work` returned (or what `output` keeps of it); `work` names the subject.
 */
export async function ledgeredTransaction<T>(
  db: Db,
  call: { actor: Actor; op?: string; input: unknown; output?: (out: T) => unknown },
  work: (tx: Tx, entry: EntrySubject) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const entry: EntrySubject = { subject: null };
    const output = await work(tx, entry);
    if (call.op)
      await appendEntry(tx, { actor: call.actor, op: call.op, subject: entry.subject, input: call.input, output: call.output ? call.output(output) : output });
    return output;
  });
}
