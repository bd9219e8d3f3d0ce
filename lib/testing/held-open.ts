import type { Tx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";

/**
 * For a race test on PostgreSQL: a transaction that does `work` and then stays open until `commit()`. `ready`
 * resolves once the work is written (its locks held); `done` with the transaction's end.
 */
export async function heldOpen<T>(work: (tx: Tx) => Promise<T>): Promise<{ commit: () => void; done: Promise<T> }> {
  let commit!: () => void;
  const gate = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let written!: () => void;
  const ready = new Promise<void>((resolve) => {
    written = resolve;
  });
  const done = (await getDb()).transaction(async (tx) => {
    const out = await work(tx);
    written();
    await gate;
    return out;
  });
  await Promise.race([ready, done]);
  return { commit, done };
}
